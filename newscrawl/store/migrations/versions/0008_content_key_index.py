"""exact duplicates looked up by a 16-character prefix of the content hash

The index on the 64-character `content_hash` took a random page per new article, and with a
million articles stored its pages, written back at every checkpoint, were a large share of
the commit's cost. `ix_articles_content_key` indexes the hash's first 16 hex digits instead
(an expression index, ``substr(content_hash, 1, 16)``): a third to two-fifths of the pages,
built from the stored rows, which stay as they are. Revision 0010 drops it again, when
exact copies are looked up in the key index.
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
