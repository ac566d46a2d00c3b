"""A consistent copy of the whole record, written while the app serves, and
its restore (``flask backup`` / ``flask restore``, README: Running for real).

SQLite: the online backup API reads every page inside one read transaction
(WAL: writers go on meanwhile) into a single self-contained file.
PostgreSQL: ``pg_dump`` in its custom format, inside a snapshot this module
exports and counts in, so the counts it prints are the copy's.  A copy is
written beside its name and renamed into place once complete: a file under
that name is never half a copy.

A restore replaces the whole record by the copy in one step (SQLite: the
backup API into the live file, under its write lock; PostgreSQL:
``pg_restore --clean --single-transaction``).  Every table's version is then
raised above the one it had before the restore, so no phone takes the
restored record for what it last saw: a stale form is refused, and a
scoreboard open anywhere redraws.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection, Engine, func, select, text, update

from ..models import GameTable, Hand

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """What went wrong, in words for the organizer (nothing was changed)."""


@dataclass(frozen=True)
class Copy:
    """A copy written or restored: where, how big, what it holds."""

    path: Path
    kind: str  # "sqlite" | "postgresql"
    size: int
    tables: int
    hands: int


def _counts(connection: Connection | sqlite3.Connection) -> tuple[int, int]:
    if isinstance(connection, sqlite3.Connection):
        tables = connection.execute("SELECT count(*) FROM game_tables").fetchone()[0]
        hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
        return tables, hands
    tables = connection.scalar(select(func.count()).select_from(GameTable)) or 0
    hands = connection.scalar(select(func.count()).select_from(Hand)) or 0
    return tables, hands


def counts(engine: Engine) -> tuple[int, int]:
    """Tables and hands in the record now."""
    with engine.connect() as connection:
        return _counts(connection)


def kind_of(path: Path) -> str:
    """``sqlite`` or ``postgresql``, from the file's first bytes."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is not a copy written by `flask backup` (neither SQLite nor pg_dump's format)")


def _written(target: Path, write: Callable[[Path], tuple[int, int]], kind: str) -> Copy:
    """Write beside ``target``, then rename into place."""
    target = target.expanduser().resolve()
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the file to write")
    if not target.parent.is_dir():
        raise BackupError(f"no folder {target.parent}")
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    partial = Path(name)
    try:
        tables, hands = write(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Copy(target, kind, target.stat().st_size, tables, hands)


# -- SQLite -------------------------------------------------------------------------------------------
def _sqlite_file(engine: Engine) -> Path:
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise BackupError("this database lives in memory: there is no file to copy")
    return Path(database)


def _backup_sqlite(engine: Engine, partial: Path) -> tuple[int, int]:
    source = sqlite3.connect(f"file:{_sqlite_file(engine)}?mode=ro", uri=True)
    copy = sqlite3.connect(partial)
    try:
        source.backup(copy)  # all pages in one step: one read transaction, one moment of the record
        copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError("the copy does not pass SQLite's integrity check")
        return _counts(copy)
    finally:
        copy.close()
        source.close()


def _restore_sqlite(engine: Engine, source_path: Path) -> None:
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    live = sqlite3.connect(_sqlite_file(engine), timeout=30)
    try:
        if source.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise BackupError(f"{source_path} does not pass SQLite's integrity check: nothing was changed")
        source.backup(live)  # under the live file's write lock; readers see before or after
        live.execute("PRAGMA journal_mode = WAL")
    finally:
        live.close()
        source.close()
    engine.dispose()  # no pooled connection keeps a page cache of the record replaced


# -- PostgreSQL ---------------------------------------------------------------------------------------
def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if versions:
        return str(versions[-1])
    raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")


def _pg_command(engine: Engine) -> tuple[list[str], dict[str, str]]:
    """The connection as libpq options; the password goes in the environment,
    never on a command line that ``ps`` shows."""
    url = engine.url
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    args = [f"--dbname={url.database}"]
    if url.host:
        args.append(f"--host={url.host}")
    if url.port:
        args.append(f"--port={url.port}")
    if url.username:
        args.append(f"--username={url.username}")
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip() or done.returncode}")


def _backup_postgresql(engine: Engine, partial: Path) -> tuple[int, int]:
    connection_args, env = _pg_command(engine)
    with engine.connect() as connection:
        connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
        snapshot = connection.scalar(text("SELECT pg_export_snapshot()"))
        counts = _counts(connection)
        dump = [_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges"]
        _run([*dump, f"--snapshot={snapshot}", f"--file={partial}", *connection_args], env)
        connection.rollback()
    return counts


def _restore_postgresql(engine: Engine, source_path: Path) -> None:
    connection_args, env = _pg_command(engine)
    _run([_pg_tool("pg_restore"), "--list", str(source_path)], env)  # readable whole before anything is dropped
    restore = [_pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges"]
    _run([*restore, "--single-transaction", "--exit-on-error", *connection_args, str(source_path)], env)
    engine.dispose()


# -- the two commands ---------------------------------------------------------------------------------
def backup(engine: Engine, target: Path) -> Copy:
    """Write a consistent copy of the whole record to ``target``."""
    if engine.dialect.name == "sqlite":
        return _written(target, lambda partial: _backup_sqlite(engine, partial), "sqlite")
    if engine.dialect.name == "postgresql":
        return _written(target, lambda partial: _backup_postgresql(engine, partial), "postgresql")
    raise BackupError(f"no backup for {engine.dialect.name}")


def restore(engine: Engine, source: Path) -> Copy:
    """Replace the whole record by the copy at ``source``; every table's
    version ends above what it was before (see the module's docstring)."""
    source = source.expanduser().resolve()
    kind = kind_of(source)
    if kind != engine.dialect.name:
        raise BackupError(
            f"{source} is a {kind} copy and this app runs on {engine.dialect.name}: "
            "move tables between the two with `flask export` and `flask import`"
        )
    with engine.connect() as connection:
        before = {row.id: row.version for row in connection.execute(select(GameTable.id, GameTable.version))}
    if kind == "sqlite":
        _restore_sqlite(engine, source)
    else:
        _restore_postgresql(engine, source)
    with engine.begin() as connection:
        for table_id, version in before.items():
            connection.execute(
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.version <= version)
                .values(version=version + 1)
            )
        tables, hands = _counts(connection)
    return Copy(source, kind, source.stat().st_size, tables, hands)
