"""Digital play: computer players now; the web pages come next."""
