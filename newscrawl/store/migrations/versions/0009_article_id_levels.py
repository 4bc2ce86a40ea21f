"""near-duplicate keys in levels of article ids on SQLite too, each sealed with a filter

SQLite's key index was a log-structured merge: levels merged into ever larger ones, and each
merge rewrote every page of the level it went into (pauses of seconds at a million
articles). As on PostgreSQL, a key is now stored at the level of its article id (65,536 ids
a level, `newscrawl.store.key_index`) and never moves, and the first lookup that finds a
level below the newest unsealed builds its Bloom filter. On SQLite the keys are copied, in
order, into those levels, and the merges' counts and filters are dropped; PostgreSQL's keys
already sit in such levels, and it loses only the unused counts table.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"

ID_BITS_PER_LEVEL = 16
"""`newscrawl.store.key_index.ARTICLES_PER_LEVEL` is 2**16 as this revision is written."""


def upgrade() -> None:
    op.drop_table("simhash_key_levels")
    op.execute("DELETE FROM simhash_key_filters WHERE bits IS NULL")  # emptied merged levels
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DELETE FROM simhash_key_filters")
    op.rename_table("simhash_keys", "simhash_keys_0008")
    op.create_table(
        "simhash_keys",
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("level", "key", "article_id"),
        sqlite_with_rowid=False,
    )
    op.execute(  # a key merged into two levels (an update, a crash) is kept once
        "INSERT OR IGNORE INTO simhash_keys (level, key, article_id)"
        f" SELECT article_id >> {ID_BITS_PER_LEVEL}, key, article_id FROM simhash_keys_0008"
        " ORDER BY 1, 2, 3"
    )
    op.drop_table("simhash_keys_0008")
