"""near-duplicate keys in their own table instead of simhash bands

The four 16-bit band columns each matched corpus / 65,536 random rows, so finding a new
article's near-twins fetched more rows the more were stored. `simhash_keys` holds 14 keys
of 32 bits per simhash (`frozen_fingerprints.lookup_keys_v1`, the keys as this revision
wrote them), built here from every stored simhash, 5,000 articles at a time; the band
columns and their indexes are dropped. Every article is kept.
"""

import sqlalchemy as sa
from alembic import op

from newscrawl.store.migrations.frozen_fingerprints import lookup_keys_v1

revision = "0005"
down_revision = "0004"

BATCH = 5000

# The tables as this revision knows them, not as `newscrawl.store.schema` declares them today.
articles = sa.table("articles", sa.column("id", sa.Integer), sa.column("simhash", sa.BigInteger))
keys_table = sa.table("simhash_keys", sa.column("key", sa.BigInteger), sa.column("article_id"))


def upgrade() -> None:
    op.create_table(
        "simhash_keys",
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "article_id"),
        sqlite_with_rowid=False,
    )
    conn = op.get_bind()
    after = 0
    while True:
        rows = conn.execute(
            sa.select(articles.c.id, articles.c.simhash)
            .where(articles.c.id > after, articles.c.simhash.is_not(None))
            .order_by(articles.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        conn.execute(
            sa.insert(keys_table),
            [
                {"key": key, "article_id": row_id}
                for row_id, stored in rows
                for key in lookup_keys_v1(stored % (1 << 64))  # the unsigned fingerprint
            ],
        )
        after = rows[-1][0]
    for band in range(4):
        op.drop_index(f"ix_articles_simhash_band{band}", table_name="articles")
        op.drop_column("articles", f"simhash_band{band}")
