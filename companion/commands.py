"""The ``flask`` commands that move tables in and out: export, import, purge."""

from __future__ import annotations

import json
from datetime import timedelta

import click
from flask import Flask
from sqlalchemy import select

from .extensions import db
from .models import GameTable, Group, Tournament
from .services.transfer import FORMAT, export_bundle, idle_groups, import_bundle, import_tournament, purge
from .services.unit import transaction


def init_app(app: Flask) -> None:
    @app.cli.command("export")
    @click.argument("tokens", nargs=-1)
    @click.option(
        "-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="file to write (default: stdout)"
    )
    def export_command(tokens: tuple[str, ...], output) -> None:
        """Export tables and groups (all, or those whose player, member or owner link is given) as JSON."""
        query = select(GameTable).order_by(GameTable.id)
        groups = select(Group).order_by(Group.id)
        if tokens:
            query = query.where(GameTable.player_token.in_(tokens) | GameTable.owner_token.in_(tokens))
            groups = groups.where(Group.owner_token.in_(tokens) | Group.member_token.in_(tokens))
        bundle = export_bundle(list(db.session.scalars(groups)), list(db.session.scalars(query)))
        json.dump(bundle, output, ensure_ascii=False, indent=1)
        output.write("\n")

    @app.cli.command("import")
    @click.argument("source", type=click.File("r", encoding="utf-8"))
    def import_command(source) -> None:
        """Import tables exported with `flask export`, or a tournament's export
        (its page's "Export (JSON)"); what is already here is skipped."""
        data = json.load(source)
        if data.get("format") != FORMAT:
            raise click.ClickException(f"unknown export format {data.get('format')!r}")
        if "tournament" in data:
            token = data["tournament"]["owner_token"]
            if db.session.scalar(select(Tournament.id).where(Tournament.owner_token == token)):
                click.echo("skipped the tournament: it is already here")
                return
            with transaction():
                tournament = import_tournament(data)
            tables = sum(len(r["tables"]) for r in data["tournament"]["seated"])
            click.echo(f"imported the tournament {tournament.name!r} with {tables} table(s)")
            return
        with transaction():
            added, skipped, groups_added, groups_skipped = import_bundle(data)
        click.echo(f"imported {added} table(s), skipped {skipped} already present")
        if data.get("groups"):
            click.echo(f"imported {groups_added} group(s), skipped {groups_skipped} already present")

    @app.cli.command("purge")
    @click.option("--days", type=click.IntRange(min=1), required=True, help="remove tables idle for longer than this")
    @click.option("--dry-run", is_flag=True, help="only count them")
    def purge_command(days: int, dry_run: bool) -> None:
        """Remove tables nobody has touched for DAYS days."""
        groups = idle_groups(timedelta(days=days))
        with transaction():
            count = purge(timedelta(days=days), dry_run)
        click.echo(f"{'would remove' if dry_run else 'removed'} {count} table(s) idle for over {days} days")
        if groups:
            click.echo(
                f"{'would remove' if dry_run else 'removed'} {groups} idle group(s); groups with recent play are kept"
            )
