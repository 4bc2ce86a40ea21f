"""every field the extractor gives, under the names the crawl's items use

Adds the columns the JSONL feed had and the store lacked (editor, description, tags, top
image, publish-time precision, the page's own canonical URL, the referer and the HTTP
status), renames ``fetched_url`` to ``final_url``, and drops ``schema_version`` (Alembic's
``alembic_version`` records the revision now). Every row is kept; the new columns are NULL
in rows stored before (their values were not recorded).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.alter_column("articles", "fetched_url", new_column_name="final_url")
    for name in ("editor", "description", "top_image", "published_precision"):
        op.add_column("articles", sa.Column(name, sa.Text()))
    op.add_column("articles", sa.Column("tags", sa.JSON()))
    op.add_column("articles", sa.Column("page_canonical_url", sa.Text()))
    op.add_column("articles", sa.Column("referer", sa.Text()))
    op.add_column("articles", sa.Column("status", sa.Integer()))
    op.drop_table("schema_version")
