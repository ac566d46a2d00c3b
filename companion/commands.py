"""The ``flask`` commands that move tables in and out: export, import,
purge, and the whole record's backup and restore."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade
from sqlalchemy import inspect, select

from .extensions import db
from .models import GameTable, Group, Tournament
from .services.backup import BackupError, backup, counts, kind_of, restore
from .services.transfer import FORMAT, export_bundle, idle_groups, import_bundle, import_tournament, purge
from .services.unit import transaction


@click.command("export")
@with_appcontext
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


@click.command("import")
@with_appcontext
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


@click.command("purge")
@with_appcontext
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


@click.command("backup")
@with_appcontext
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(target: Path) -> None:
    """Write a consistent copy of the whole record to TARGET while the app serves."""
    try:
        copy = backup(db.engine, target)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"wrote {copy.path} ({copy.kind}, {_size(copy.size)}): {copy.tables} table(s), {copy.hands} hand(s)")


@click.command("restore")
@with_appcontext
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="replace without asking")
def restore_command(source: Path, yes: bool) -> None:
    """Replace the whole record by SOURCE, a copy written by `flask backup`."""
    try:
        kind_of(source)
        tables, hands = counts(db.engine)
        if not yes:
            click.confirm(f"Replace the whole record ({tables} table(s), {hands} hand(s)) by {source}?", abort=True)
        copy = restore(db.engine, source)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    if inspect(db.engine).has_table("alembic_version"):
        upgrade()  # a copy written by an older release
    versions = current_app.extensions.get("versions")
    if versions is not None:
        versions.forget()
    click.echo(f"restored {copy.path}: {copy.tables} table(s), {copy.hands} hand(s)")


def init_app(app: Flask) -> None:
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(purge_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"
