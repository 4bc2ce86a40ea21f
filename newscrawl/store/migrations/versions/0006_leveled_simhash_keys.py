"""near-duplicate keys in sorted levels, merged in bulk

With every key inserted where it belongs in one B-tree, a batch of 1,000 articles dirtied
14,000 scattered pages once the index outgrew the cache, and with a million articles stored
the store wrote at a fraction of its rate when small. `simhash_keys` gains a leading
``level`` column (`newscrawl.store.key_index`) and `simhash_key_levels` counts the keys of
each level. The stored keys are copied, in key order, to level 0 (since revision 0009
re-levels them by article id on SQLite, and PostgreSQL seals a level 0 of any size, nothing
here chooses a deeper level, nor counts).
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    conn = op.get_bind()
    op.rename_table("simhash_keys", "simhash_keys_0005")
    if conn.dialect.name == "postgresql":  # the new table's key takes the old name
        op.execute("ALTER INDEX simhash_keys_pkey RENAME TO simhash_keys_0005_pkey")
    op.create_table(
        "simhash_keys",
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("key", sa.BigInteger(), nullable=False),
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("level", "key", "article_id"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "simhash_key_levels",
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("key_count", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("level"),
    )
    op.execute(
        "INSERT INTO simhash_keys (level, key, article_id)"
        " SELECT 0, key, article_id FROM simhash_keys_0005 ORDER BY key"
    )
    op.drop_table("simhash_keys_0005")
