"""a Bloom filter for each level of the near-duplicate key index

Each lookup probed every level of `simhash_keys` for every key, and once the deep levels
outgrew the page cache nearly every probe, a miss, cost a page read. The new table
`simhash_key_filters` holds a `newscrawl.store.key_filter` filter per sealed level; none is
built here: since revision 0009 a lookup seals the levels it finds unsealed.
"""

import sqlalchemy as sa
from alembic import op

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
