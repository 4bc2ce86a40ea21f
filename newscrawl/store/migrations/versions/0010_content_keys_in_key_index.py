"""exact duplicates looked up in the key index, not by an index on `articles`

`ix_articles_content_key` put every new article's hash on a random page of an index that,
with a million articles stored, no longer stayed in the cache, and each page so changed was
written back at the next checkpoint. A stored article's content hash now has a key in
`simhash_keys` beside its simhash's (`newscrawl.fingerprint.content_key`: plane 14, the
hash's first 32 bits), at the level of its article id, where new keys land on the pages of
one level. The keys of the stored articles are added here and the index dropped; the sealed
levels' filters, built without those keys, are dropped too, and the first lookup builds them
again.
"""

from alembic import op

revision = "0010"
down_revision = "0009"

ID_BITS_PER_LEVEL = 16
"""`newscrawl.store.key_index.ARTICLES_PER_LEVEL` is 2**16 as this revision is written."""
CONTENT_PLANE_TAG = 14 << 32
"""`newscrawl.fingerprint.CONTENT_PLANE` times 2**32, as this revision is written."""


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        leading_bits = "('x' || substr(content_hash, 1, 8))::bit(32)::bigint"
    else:  # SQLite reads no hexadecimal: a function of this connection's does
        sqlite_conn = conn.connection.driver_connection
        assert sqlite_conn is not None
        sqlite_conn.create_function(
            "newscrawl_hex_bits", 1, lambda digits: int(digits, 16), deterministic=True
        )
        leading_bits = "newscrawl_hex_bits(substr(content_hash, 1, 8))"
    op.execute(
        "INSERT INTO simhash_keys (level, key, article_id)"
        f" SELECT id >> {ID_BITS_PER_LEVEL}, {CONTENT_PLANE_TAG} | {leading_bits}, id"
        " FROM articles WHERE content_hash IS NOT NULL AND content_hash <> ''"
        " ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING"  # a store written by this release since
    )
    op.execute("DELETE FROM simhash_key_filters")
    op.execute("DROP INDEX IF EXISTS ix_articles_content_key")
