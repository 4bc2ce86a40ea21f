"""What the store receives: an `ArticleRecord`, built from a crawl's item or a re-extraction.

The record's values are the item's `RECORD_FIELDS` (`newscrawl.article`) by name, converted
by kind (times to timezone-aware datetimes, tags to a tuple), so a field declared there
reaches the table with no code here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from newscrawl.article import FINGERPRINT_FIELDS, RECORD_FIELDS, ArticleField, Kind
from newscrawl.fingerprint import content_hash as hash_of
from newscrawl.fingerprint import simhash as simhash_of

_RECORD_NAMES = frozenset(f.name for f in RECORD_FIELDS)
_REQUIRED_NAMES = frozenset(f.name for f in RECORD_FIELDS if f.required)
_OLD_NAMES = {"fetched_url": "final_url"}


@dataclass(frozen=True, slots=True)
class ArticleRecord:
    """One article as the store receives it. Build with `of`, which checks the field names
    and fingerprints the body; read a field with ``record["title"]``."""

    canonical_url: str
    fetched_at: datetime
    values: Mapping[str, Any]
    """Every `RECORD_FIELDS` name, None where the article has no value (tags: a tuple)."""
    content_hash: str | None
    simhash: int | None
    aliases: tuple[str, ...] = ()
    """Other canonical URLs that led to this page (e.g. the URL before a redirect)."""

    @classmethod
    def of(
        cls,
        *,
        canonical_url: str,
        fetched_at: datetime,
        aliases: Iterable[str] = (),
        content_hash: str | None = None,
        simhash: int | None = None,
        **values: Any,
    ) -> ArticleRecord:
        """A record of `values` (`RECORD_FIELDS` names) with the body's fingerprints.

        The fingerprints an extraction computed (`newscrawl.article.FINGERPRINT_FIELDS`) are
        kept when `content_hash` is that of the body: the costly simhash then stays where
        extraction ran. A body changed since, by a pipeline of the user's say, gets both
        computed again here. An unknown name is a TypeError, as for any keyword argument: a
        misspelt field must not vanish on its way to the database."""
        unknown = values.keys() - _RECORD_NAMES
        if unknown:
            raise TypeError(f"not article record fields: {', '.join(sorted(unknown))}")
        missing = {name for name in _REQUIRED_NAMES if values.get(name) is None}
        if missing:
            raise TypeError(f"article record fields missing: {', '.join(sorted(missing))}")
        complete = {f.name: _record_value(f, values.get(f.name)) for f in RECORD_FIELDS}
        body = complete["body"]
        body_hash = hash_of(body)
        if content_hash is None or content_hash != body_hash:
            simhash = simhash_of(body)
        return cls(
            canonical_url,
            fetched_at,
            MappingProxyType(complete),
            body_hash,
            simhash,
            tuple(aliases),
        )

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready mapping that `from_json` turns back into an equal record."""
        return {
            "canonical_url": self.canonical_url,
            "fetched_at": self.fetched_at.isoformat(),
            "aliases": list(self.aliases),
            **{f.name: _json_value(self.values[f.name]) for f in RECORD_FIELDS},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ArticleRecord:
        """The record `to_json` wrote, or a release before schema 0003 spooled (which named
        `final_url` ``fetched_url`` and wrote the fingerprints, recomputed here)."""
        values = {_OLD_NAMES.get(key, key): value for key, value in data.items()}
        for fingerprint in FINGERPRINT_FIELDS:  # a spool's may predate the simhash of 0004
            values.pop(fingerprint.name, None)
        fetched_at = datetime.fromisoformat(values.pop("fetched_at"))
        return cls.of(fetched_at=fetched_at, **values)


def _record_value(article_field: ArticleField, value: Any) -> Any:
    """An item's value as the store takes it: by the field's kind."""
    if article_field.kind is Kind.TIME:
        return aware(value)
    if article_field.kind is Kind.TEXTS:
        return tuple(value or ())
    return value


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return list(value) if isinstance(value, tuple) else value


def aware(value: Any) -> datetime | None:
    """A timezone-aware datetime from an ISO string or datetime; None when absent, not a
    time, or naive (a naive time's zone would be a guess)."""
    if isinstance(value, str) and value:
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return None
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value
    return None


def record_from_item(
    item: Mapping[str, Any], canonicalize: Callable[[str], str], *, default_site: str
) -> ArticleRecord | None:
    """The store record of an article item (a mapping of `ITEM_FIELDS`), or None for an
    item that is not an article.

    The canonical URL is that of the final URL (after redirects); the requested URL, when it
    canonicalises differently, becomes an alias so the next crawl skips it without fetching.
    """
    url = item.get("url")
    body = item.get("body")
    if not url or not isinstance(body, str):
        return None
    final_url = item.get("final_url") or url
    canonical = canonicalize(final_url)
    requested = canonicalize(url)
    values = {name: item.get(name) for name in _RECORD_NAMES}
    values.update({f.name: item.get(f.name) for f in FINGERPRINT_FIELDS})
    values.update(
        final_url=final_url,
        site=item.get("site") or default_site,
        title=item.get("title") or "",
    )
    return ArticleRecord.of(
        canonical_url=canonical,
        fetched_at=aware(item.get("fetched")) or datetime.now(UTC),
        aliases=(requested,) if requested != canonical else (),
        **values,
    )
