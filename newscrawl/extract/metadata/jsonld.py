"""schema.org JSON-LD objects of a page (`<script type="application/ld+json">`).

The most explicit metadata a page can carry, but often sloppy: trailing commas, raw
newlines inside strings, several blocks, `@graph` wrappers, lists. Every block that does
not parse is skipped, never fatal.

Why ours and not extruct: on the 903 dataset pages the head scan and this module read the
JSON-LD in 314 ms where extruct's `JsonLdExtractor` takes 1,325 ms, nine tenths of it
building an lxml DOM the extractor otherwise never needs (``bench/bench_libraries.py``,
BENCHMARKS.md). extruct raises on any block it cannot parse and so loses every object of
the page: on 28 dataset pages, 25 of which this module reads (19 of them CDATA-wrapped), and
it does not flatten `@graph`. It would bring 12 distributions (8.9 MiB, rdflib among them)
to replace about 12 lines; the one case it reads and we do not is a ``//`` comment inside
the JSON (1 page of 903, an Organization).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from newscrawl.extract.clean import unescape
from newscrawl.extract.head import JSON_LD, Script

_CONTROL_RE = re.compile(r"[\x00-\x1f]+")
"""Raw control characters (newlines pasted into strings) make json.loads fail."""
_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_UNSTORABLE_ESCAPE_RE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
"""A string escape of NUL or of a surrogate (see `_storable_escape`)."""
_ESCAPE_RE = re.compile(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
    r"|u[dD][c-fC-F][0-9a-fA-F]{2}|u0000|.)",
    re.DOTALL,
)
"""One escape, read left to right so that an escaped backslash is never the start of the
next: a surrogate pair, a lone surrogate, NUL, or any other."""
ARTICLE_TYPES = frozenset(
    {
        "article",
        "newsarticle",
        "blogposting",
        "reportagenewsarticle",
        "analysisnewsarticle",
        "techarticle",
        "scholarlyarticle",
        "socialmediaposting",
        "webpage",
        "posting",
        "liveblogposting",
        "opinionnewsarticle",
        "discussionforumposting",
    }
)


def objects(scripts: Iterable[Script]) -> list[dict[str, Any]]:
    """Every JSON-LD object of the page's `scripts`, `@graph` and list members flattened,
    in order."""
    found: list[dict[str, Any]] = []
    for script in scripts:
        if script.type == JSON_LD:
            found.extend(_flatten(parse(script.text)))
    return found


def article_objects(scripts: Iterable[Script]) -> list[dict[str, Any]]:
    """The objects describing the page's own article (not its breadcrumbs or publisher);
    untyped objects count too, as some CMSs leave `@type` out."""
    return [obj for obj in objects(scripts) if not _types(obj) or _types(obj) & ARTICLE_TYPES]


def names(value: object) -> list[str]:
    """Person/organisation names of an `author`/`publisher` value (str, dict or list),
    HTML entities decoded: CMSs escape a name for HTML before writing it into the JSON
    ("O&#039;Donnell")."""
    if isinstance(value, str):
        name = unescape(value).strip()
        return [name] if name else []
    if isinstance(value, dict):
        return names(value.get("name"))
    if isinstance(value, list):
        return [name for item in value for name in names(item)]
    return []


_CDATA_RE = re.compile(r"^(?://\s*)?<!\[CDATA\[|(?://\s*)?\]\]>$")
"""A CDATA section around the JSON (XHTML habit, kept by many CMSs): not JSON itself.
Searched only in texts that start as it does or hold "]]>" (its end is tried at every
position)."""


def parse(text: str) -> object:
    """The value of a JSON-LD block's `text`, or None when it does not parse: a CDATA
    wrapper is dropped, an escape of NUL or of a lone surrogate reads as U+FFFD (a database's
    text column refuses NUL, and UTF-8 cannot encode a lone surrogate), and a block that is
    not strict JSON is tried again with its raw control characters as spaces and its
    trailing commas removed."""
    text = text.strip()
    if "]]>" in text or text.startswith(("<![CDATA[", "//")):
        text = _CDATA_RE.sub("", text).strip()
    if not text:
        return None
    if _UNSTORABLE_ESCAPE_RE.search(text):
        text = _ESCAPE_RE.sub(_storable_escape, text)
    for candidate in (text, _TRAILING_COMMA_RE.sub(r"\1", _CONTROL_RE.sub(" ", text))):
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):  # ValueError: also an integer past int's digit limit
            continue
    return None


def _storable_escape(escape: re.Match[str]) -> str:
    """`escape` (an `_ESCAPE_RE` match) as it stays, or the escape of U+FFFD for NUL and a
    lone surrogate (six characters; a pair has twelve)."""
    text = escape[0]
    return "\\ufffd" if len(text) == 6 and text[2] in "0dD" else text


def _flatten(data: object) -> Iterator[dict[str, Any]]:
    if isinstance(data, list):
        for item in data:
            yield from _flatten(item)
    elif isinstance(data, dict):
        yield data
        yield from _flatten(data.get("@graph"))


def _types(obj: dict[str, Any]) -> set[str]:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return {k.lower() for k in kinds if isinstance(k, str)}
