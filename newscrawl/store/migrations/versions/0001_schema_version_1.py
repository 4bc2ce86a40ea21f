"""schema version 1, the first release's tables

The baseline: databases made by releases before Alembic at ``schema_version`` 1 are stamped
with this revision, never created by it (a new database is created from the declaration in
`newscrawl.store.schema`).
"""

revision = "0001"
down_revision = None


def upgrade() -> None:
    raise RuntimeError(
        "revision 0001 is a baseline: a database is stamped with it, not built by it"
    )
