"""a Bloom filter for each level of the near-duplicate key index

Each lookup probed every level of `simhash_keys` for every key, and once the deep levels
outgrew the page cache nearly every probe, a miss, cost a page read (issue 18). The new
table `simhash_key_filters` holds a `newscrawl.store.key_filter` filter per level below 0;
on SQLite, the only database whose levels merge, one is built now for each level holding
keys.
"""

import sqlalchemy as sa
from alembic import op

from newscrawl.store.key_index import merges_levels, rebuild_filter

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "simhash_key_filters",
        sa.Column("level", sa.SmallInteger(), nullable=False),
        sa.Column("generation", sa.BigInteger(), nullable=False),
        sa.Column("planned_keys", sa.BigInteger(), nullable=True),
        sa.Column("bits", sa.LargeBinary(), nullable=True),
        sa.PrimaryKeyConstraint("level"),
    )
    conn = op.get_bind()
    if merges_levels(conn):
        held = sa.text("SELECT level, key_count FROM simhash_key_levels WHERE level > 0")
        for level, keys in conn.execute(held).all():
            if keys:
                rebuild_filter(conn, level, keys)
