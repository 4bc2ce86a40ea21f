"""simhashes recomputed with XXH64 shingle hashes

The simhash now hashes shingles with XXH64 instead of blake2b. A fingerprint made the old
way is unrelated to a new one, so stored articles would never be found as near-twins of new
ones: every stored body is fingerprinted again, 1,000 rows at a time, with the algorithm as
this revision wrote it (`frozen_fingerprints.simhash_v1`, not the live module). Exact
duplicates (`content_hash`) do not change.
"""

import sqlalchemy as sa
from alembic import op

from newscrawl.store.migrations.frozen_fingerprints import simhash_v1, to_column

revision = "0004"
down_revision = "0003"

BATCH = 1000
BANDS = 4
"""The simhash cut in 4 bands of 16 bits, each a column: the near-duplicate lookup of this
revision (0005 replaced it by the `simhash_keys` table)."""


def bands(fingerprint: int) -> tuple[int, ...]:
    return tuple((fingerprint >> (16 * i)) & 0xFFFF for i in range(BANDS))


# The table as this revision knows it, not as `newscrawl.store.schema` declares it today.
articles = sa.table(
    "articles",
    sa.column("id", sa.Integer),
    sa.column("body", sa.Text),
    sa.column("simhash", sa.BigInteger),
    *(sa.column(f"simhash_band{i}", sa.Integer) for i in range(BANDS)),
)


def upgrade() -> None:
    conn = op.get_bind()
    band_names = [f"simhash_band{i}" for i in range(BANDS)]
    refresh = (
        sa.update(articles)
        .where(articles.c.id == sa.bindparam("row_id"))
        .values(
            simhash=sa.bindparam("fingerprint"),
            **{name: sa.bindparam(name) for name in band_names},
        )
    )
    after = 0
    while True:
        rows = conn.execute(
            sa.select(articles.c.id, articles.c.body)
            .where(articles.c.id > after)
            .order_by(articles.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        updates = []
        for row_id, body in rows:
            fingerprint = simhash_v1(body)
            parts = bands(fingerprint) if fingerprint is not None else (None,) * BANDS
            updates.append(
                {
                    "row_id": row_id,
                    "fingerprint": to_column(fingerprint),
                    **dict(zip(band_names, parts, strict=True)),
                }
            )
        conn.execute(refresh, updates)
        after = rows[-1][0]
