"""the extraction confidence

Schema version 2: ``articles.confidence``, NULL for the rows already stored.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("articles", sa.Column("confidence", sa.Float()))
