"""exact duplicates looked up by a 16-character prefix of the content hash

The index on the 64-character `content_hash` took a random page per new article, and with a
million articles stored its pages, written back at every checkpoint, were a large share of
the commit's cost. `ix_articles_content_key` indexes the hash's first 16 hex digits instead
(`newscrawl.store.schema.CONTENT_KEY`): a third to two-fifths of the pages, built from the
stored rows, which stay as they are.
"""

from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_articles_content_key"
        " ON articles (substr(content_hash, 1, 16))"
    )
    op.execute("DROP INDEX IF EXISTS ix_articles_content_hash")
