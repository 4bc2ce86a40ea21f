"""The store's schema migrations, run by Alembic on a connection the store already holds.

Revisions live in ``versions/``, one file each (``0003_article_fields.py``): a new one copies
the last, sets ``down_revision`` to its ``revision``, and changes the table declaration in
`newscrawl.store.schema` (which a new database is created from) to match.
``tests/test_store_migrations.py`` checks that an upgraded database and a new one have the
same tables. Releases before Alembic kept their version in a ``schema_version`` table: such a
database is stamped with revision ``000<version>`` and upgraded from there.

Scrapyd imports the project from a zipped egg, where Alembic cannot list ``versions/``; the
scripts are then copied to a temporary directory first (`_script_directory`).
"""

from __future__ import annotations

import atexit
import logging
import shutil
import tempfile
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext, MigrationInfo
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection

VERSION_TABLE = "alembic_version"

# Alembic logs every context and step at INFO; the store logs what it did in one line.
logging.getLogger("alembic").setLevel(logging.WARNING)

LEGACY_REVISIONS = {1: "0001", 2: "0002"}
"""The revision a pre-Alembic database's ``schema_version`` stands for."""


class UnknownRevision(RuntimeError):
    """The database is at a revision this release does not know: a newer release wrote it."""


@cache
def _script_directory() -> ScriptDirectory:
    """The revisions, read from the installed package (unpacked first when it is zipped)."""
    location = resources.files(__name__)
    if not isinstance(location, Path):
        location = _unpack(location)
    config = Config()
    config.set_main_option("script_location", str(location))
    return ScriptDirectory.from_config(config)


def _unpack(package: Traversable) -> Path:
    """Copy a zipped package's migration scripts to a temporary directory."""
    target = Path(tempfile.mkdtemp(prefix="newscrawl-migrations-"))
    atexit.register(shutil.rmtree, target, ignore_errors=True)

    def copy(source: Traversable, into: Path) -> None:
        for entry in source.iterdir():
            if entry.is_dir():
                (into / entry.name).mkdir()
                copy(entry, into / entry.name)
            elif entry.name.endswith((".py", ".mako")):
                (into / entry.name).write_bytes(entry.read_bytes())

    copy(package, target)
    return target


def _config(conn: Connection, **attributes: object) -> Config:
    """An Alembic config whose env.py runs on `conn` (Alembic's documented way to share a
    connection with its commands)."""
    config = Config()
    config.set_main_option("script_location", str(_script_directory().dir))
    config.attributes.update(connection=conn, **attributes)
    return config


def head() -> str:
    """The newest revision: what a database this release creates is stamped with."""
    revision = _script_directory().get_current_head()
    assert revision is not None
    return revision


def current(conn: Connection) -> str | None:
    """The revision the database is stamped with (None: none)."""
    return MigrationContext.configure(conn).get_current_revision()


def stamp_head(conn: Connection) -> str:
    """Record that the database is at `head` (its tables were just created as declared)."""
    command.stamp(_config(conn), "head")
    return head()


def upgrade(conn: Connection, *, legacy_version: int | None = None) -> tuple[str, ...]:
    """Run every migration the database lacks, inside the caller's transaction.

    `legacy_version` is the ``schema_version`` of a database from before Alembic: it is
    stamped with that version's revision first. Returns the migrations applied, oldest
    first, as "revision: what it does"; raises `UnknownRevision` for a database stamped by
    a newer release."""
    if legacy_version is not None:
        if legacy_version not in LEGACY_REVISIONS:
            raise UnknownRevision(f"database schema version {legacy_version} is unknown")
        command.stamp(_config(conn), LEGACY_REVISIONS[legacy_version])
    at = current(conn)
    if not _known(at):
        raise UnknownRevision(f"database schema revision {at} is newer than this release's")
    applied: list[str] = []

    def note(*, step: MigrationInfo, **_: object) -> None:
        script = _script_directory().get_revision(step.up_revision_id or "base")
        doc = script.doc if script is not None else ""
        applied.append(f"{step.up_revision_id}: {doc}" if doc else str(step.up_revision_id))

    command.upgrade(_config(conn, on_version_apply=note), "head")
    return tuple(applied)


def _known(revision: str | None) -> bool:
    if revision is None:
        return True
    try:
        return _script_directory().get_revision(revision) is not None
    except CommandError:  # Alembic's wrapper of "can't locate revision"
        return False
