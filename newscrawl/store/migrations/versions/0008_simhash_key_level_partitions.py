"""on PostgreSQL, a table per level of the near-duplicate key index

PostgreSQL kept every key in one B-tree at level 0, and once it outgrew the shared buffers
each key inserted cost a page read in and a dirty page written out: with 1,000,000 articles
stored the store wrote at 0.58 of its rate with 10,000 (issue 18). Its levels now merge as
SQLite's do, each in a partition of `simhash_keys` that is vacuumed once a merge has emptied
it (`newscrawl.store.key_index`). The stored keys are copied, in key order, to the first
level that holds them all, and that level is counted. SQLite is unchanged.
"""

import sqlalchemy as sa
from alembic import op

from newscrawl.store.key_index import bulk_level
from newscrawl.store.schema import key_level_partition

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "postgresql":
        return
    op.rename_table("simhash_keys", "simhash_keys_0007")
    op.execute("ALTER INDEX simhash_keys_pkey RENAME TO simhash_keys_0007_pkey")
    op.create_table(
        "simhash_keys",
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("level", "key", "article_id"),
        postgresql_partition_by="LIST (level)",
    )
    for level in range(6):
        op.execute(
            f"CREATE TABLE {key_level_partition(level)} PARTITION OF simhash_keys"
            f" FOR VALUES IN ({level})"
        )
    stored = conn.execute(sa.text("SELECT count(*) FROM simhash_keys_0007")).scalar_one()
    level = bulk_level(stored)
    copied = conn.execute(
        sa.text(
            "INSERT INTO simhash_keys (level, key, article_id)"
            " SELECT DISTINCT :level, key, article_id FROM simhash_keys_0007 ORDER BY 2, 3"
        ),
        {"level": level},
    ).rowcount
    conn.execute(sa.text("DELETE FROM simhash_key_levels"))
    if level > 0:  # level 0 is never counted on PostgreSQL
        conn.execute(
            sa.text("INSERT INTO simhash_key_levels (level, key_count) VALUES (:level, :keys)"),
            {"level": level, "keys": copied},
        )
    op.drop_table("simhash_keys_0007")
