"""What every blueprint shares: links and roles, messages, i18n, templating,
forms, the card grid, cookies, logs.  Above the services, below the blueprints."""
