"""The article's fields, declared once: what each means, where it comes from, where it goes.

Every place an article is written out derives its columns from `FIELDS`: the crawl's item
(`newscrawl.items.ArticleItem`), the record the store receives (`store.records`), the
`articles` table and its upsert (`store.schema`, `store.sql`), and every export format
(`store.export`). A field added here reaches all of them; `tests/test_article_fields.py`
fails when one the extractor fills does not reach the database or an export.

Names are the same everywhere. Two URLs are easy to confuse: `canonical_url` is the store's
key (the final URL canonicalised by `newscrawl.urls`), `page_canonical_url` is the URL the
page itself declares canonical (``<link rel=canonical>``, ``og:url``), which may name
another host or be wrong, so it is kept but never keys anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo

from newscrawl.extract import Article, Options, extract
from newscrawl.fingerprint import content_hash, simhash
from newscrawl.identity import release


class Kind(StrEnum):
    """A field's type. Times travel as ISO 8601 text with their offset in the crawl's items
    and JSONL, and as timezone-aware datetimes in the store and Parquet."""

    TEXT = "text"
    INTEGER = "integer"
    NUMBER = "number"
    TIME = "time"
    TEXTS = "texts"
    """A list of strings (tags)."""
    FINGERPRINT = "fingerprint"
    """An unsigned 64-bit integer (the simhash)."""


class Origin(StrEnum):
    """Who fills a field."""

    FETCH = "fetch"
    """The spider, from the response (`newscrawl.items.RawPage`)."""
    EXTRACTOR = "extractor"
    """`newscrawl.extract`, from the page."""
    FINGERPRINT = "fingerprint"
    """`newscrawl.fingerprint`, from the extracted body, where extraction runs (in a worker
    process with ``NEWSCRAWL_EXTRACT_PROCESSES``): hashing is the costliest step after
    extraction and must not hold up the crawl's own thread."""
    STORE = "store"
    """The store, when it writes the article."""


@dataclass(frozen=True, slots=True)
class ArticleField:
    """One field of an article."""

    name: str
    kind: Kind
    origin: Origin
    meaning: str
    required: bool = False
    """Never None (NOT NULL in the table)."""
    stored: bool = True
    """A column of the store's `articles` table."""
    exported: bool = True
    """A column of `newscrawl export`'s files (only stored fields can be)."""
    read: Callable[[Article], Any] | None = None
    """How an extractor field is read off `newscrawl.extract.Article` (its plain value)."""


def _version(_: Article) -> str | None:
    return release()


F, E, H, S = Origin.FETCH, Origin.EXTRACTOR, Origin.FINGERPRINT, Origin.STORE

FIELDS: tuple[ArticleField, ...] = (
    ArticleField(
        "canonical_url",
        Kind.TEXT,
        S,
        "The store's key: the final URL canonicalised (newscrawl.urls); any other URL that led "
        "to the same article is kept as an alias of it.",
        required=True,
    ),
    ArticleField(
        "url",
        Kind.TEXT,
        F,
        "The URL requested (the link found, tracking parameters removed); stored as "
        "canonical_url or as an alias of it.",
        required=True,
        stored=False,
    ),
    ArticleField("final_url", Kind.TEXT, F, "The URL after redirects.", required=True),
    ArticleField("site", Kind.TEXT, F, "The site config the page was crawled by.", required=True),
    ArticleField(
        "status",
        Kind.INTEGER,
        F,
        "The HTTP status of the response (empty in rows stored before schema 0003).",
    ),
    ArticleField(
        "referer", Kind.TEXT, F, "The listing page, feed, sitemap or API the link was found on."
    ),
    ArticleField(
        "fetched",
        Kind.TIME,
        F,
        "When the response arrived; the store keeps it as first_seen, last_fetched and "
        "last_changed.",
        required=True,
        stored=False,
    ),
    ArticleField("title", Kind.TEXT, E, "The headline.", required=True, read=lambda a: a.title),
    ArticleField(
        "body",
        Kind.TEXT,
        E,
        "The article's text, paragraphs separated by newlines.",
        required=True,
        read=lambda a: a.body,
    ),
    ArticleField(
        "published_at",
        Kind.TIME,
        E,
        "When the article was published, as the page says.",
        read=lambda a: a.metadata.published,
    ),
    ArticleField(
        "published_precision",
        Kind.TEXT,
        E,
        "How much of published_at the page gave: month, day, minute or second (a day-only "
        "date is stored at midnight).",
        read=lambda a: a.metadata.published_precision,
    ),
    ArticleField("author", Kind.TEXT, E, "The byline.", read=lambda a: a.metadata.author),
    ArticleField(
        "source",
        Kind.TEXT,
        E,
        "The outlet credited (来源), on portals often not the site itself.",
        read=lambda a: a.metadata.source,
    ),
    ArticleField(
        "editor", Kind.TEXT, E, "The editor in charge (责任编辑).", read=lambda a: a.metadata.editor
    ),
    ArticleField(
        "description",
        Kind.TEXT,
        E,
        "The page's own summary (meta description).",
        read=lambda a: a.metadata.description,
    ),
    ArticleField(
        "tags",
        Kind.TEXTS,
        E,
        "The page's keywords and article tags.",
        read=lambda a: list(a.metadata.tags),
    ),
    ArticleField(
        "top_image", Kind.TEXT, E, "The lead image's URL.", read=lambda a: a.metadata.top_image
    ),
    ArticleField(
        "language",
        Kind.TEXT,
        E,
        "The page's language (BCP 47, as declared or guessed from the script).",
        read=lambda a: a.metadata.lang,
    ),
    ArticleField(
        "page_canonical_url",
        Kind.TEXT,
        E,
        "The URL the page declares canonical (rel=canonical, og:url); not the store's key.",
        read=lambda a: a.metadata.canonical_url,
    ),
    ArticleField(
        "encoding",
        Kind.TEXT,
        E,
        "The encoding the page was decoded with.",
        read=lambda a: a.encoding,
    ),
    ArticleField(
        "extractor_method",
        Kind.TEXT,
        E,
        "The extraction method that produced the body (default or paper).",
        read=lambda a: a.method,
    ),
    ArticleField(
        "extractor_version",
        Kind.TEXT,
        E,
        "The newscrawl release that extracted it.",
        read=_version,
    ),
    ArticleField(
        "confidence",
        Kind.NUMBER,
        E,
        "How sure the extractor is that the body is the article, 0 to 1; empty when its "
        "method gives no estimate (the paper method).",
        read=lambda a: a.confidence,
    ),
    ArticleField("first_seen", Kind.TIME, S, "When the article was first stored.", required=True),
    ArticleField("last_fetched", Kind.TIME, S, "When it was last fetched.", required=True),
    ArticleField(
        "last_changed",
        Kind.TIME,
        S,
        "When its body last changed (by a fetch or a re-extraction).",
        required=True,
    ),
    ArticleField(
        "content_hash",
        Kind.TEXT,
        H,
        "SHA-256 of the normalised body: exact duplicates.",
        read=lambda a: content_hash(a.body),
    ),
    ArticleField(
        "simhash",
        Kind.FINGERPRINT,
        H,
        "The body's 64-bit simhash: near-duplicates (newscrawl.fingerprint).",
        exported=False,
        read=lambda a: simhash(a.body),
    ),
    ArticleField(
        "near_duplicate_of",
        Kind.TEXT,
        S,
        "The canonical_url of a stored article whose body is nearly the same.",
    ),
)
"""Every field, in the order tables and exports list them."""

ITEM_FIELDS = tuple(f for f in FIELDS if f.origin is not Origin.STORE)
"""The fields of the crawl's article item (its JSONL feed line)."""
EXTRACTED_FIELDS = tuple(f for f in FIELDS if f.origin is Origin.EXTRACTOR)
FINGERPRINT_FIELDS = tuple(f for f in FIELDS if f.origin is Origin.FINGERPRINT)
RECORD_FIELDS = tuple(f for f in ITEM_FIELDS if f.stored and f.origin is not Origin.FINGERPRINT)
"""The item's fields the store keeps as they are (`store.records.ArticleRecord.values`); the
record holds the fingerprints beside them, checked against the body."""
STORED_FIELDS = tuple(f for f in FIELDS if f.stored)
"""The columns of the `articles` table, after its id."""
EXPORT_FIELDS = tuple(f for f in STORED_FIELDS if f.exported)
"""The columns of `newscrawl export`'s files, in order."""


class Extracted(NamedTuple):
    """What extraction gives an article item: a tuple of plain values, quick to send back
    from a worker process (pickling the `Article` dataclasses cost more than the call)."""

    fields: dict[str, Any]
    """The `EXTRACTED_FIELDS` and `FINGERPRINT_FIELDS` by name, as the item holds them
    (empty when there is no body)."""
    reason: str | None
    """Why the page has no article body (None when it has one)."""


def item_value(article_field: ArticleField, value: Any) -> Any:
    """`value` as an item (and a JSON line) holds it: times as ISO 8601 text."""
    if article_field.kind is Kind.TIME and isinstance(value, datetime):
        return value.isoformat()
    return value


def for_crawl(options: Options) -> Options:
    """`options` as a crawl (and a re-extraction of one) extracts with: no short-page rule,
    since a fetched page with under 300 characters of text is an error or stub page ("Not
    found"), dropped with its reason rather than stored as an article."""
    return replace(options, short_page_chars=0)


def extract_fields(
    body: bytes,
    url: str,
    http_charset: str | None,
    fetched: str,
    options: Options,
    timezone: str | None = None,
) -> Extracted:
    """`extract` one fetched page into the item fields extraction fills; `timezone` is the
    site config's (an IANA name; None: the extractor's default).

    Shared by the crawl's extract pipeline and ``newscrawl reextract``, so a re-extracted
    article carries exactly what a crawled one does."""
    article = extract(
        body,
        url,
        options=options,
        http_charset=http_charset,
        fetched_at=datetime.fromisoformat(fetched),
        zone=ZoneInfo(timezone) if timezone else None,
    )
    if not article.body:
        return Extracted({}, article.reason or "empty body")
    return Extracted(
        {
            f.name: item_value(f, f.read(article))
            for f in (*EXTRACTED_FIELDS, *FINGERPRINT_FIELDS)
            if f.read
        },
        None,
    )
