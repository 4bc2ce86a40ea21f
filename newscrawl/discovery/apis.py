"""JSON and JSONP list APIs: the one part of discovery that needs code per site.

Each parser takes the response text, the response URL (to resolve relative links) and the
site's time zone, and returns the listed article links with their dates. A response of the
wrong shape raises `MalformedListError`; the spider counts it and goes on. A site config
names its parser (``parser = "sina_roll"``); `API_PARSERS` is the list of names. Response
shapes are the ones documented in ``docs/sites.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import tzinfo
from types import MappingProxyType
from typing import Any

from newscrawl.discovery.dates import parse_datetime
from newscrawl.discovery.model import Entry, MalformedListError, absolute_url

ApiParser = Callable[[str, str, tzinfo], list[Entry]]

_JSONP_RE = re.compile(
    r"^(?:try\s*\{\s*)?[\w$.]+\s*\((?P<json>.*)\)\s*(?:;\s*)?(?:\}\s*catch\s*\(\w*\)\s*\{\s*\}\s*;?)?$",
    re.DOTALL,
)
"""``callback(...)``, also wrapped the way Sina wraps it: ``try{callback(...);}catch(e){};``.
One whitespace run after each ``)`` (``\\s*(?:;\\s*)?``, not ``\\s*;?\\s*``, whose two runs
split a long run every way: quadratic in it at every ``)`` the ``.*`` backs over)."""
_ASSIGNMENT_RE = re.compile(r"^var\s+[\w$]+\s*=\s*(?P<json>.*?);?$", re.DOTALL)


def load_json_or_jsonp(text: str) -> Any:
    """Parse JSON, ``callback({...})`` or ``var data = {...};``; raises `MalformedListError`."""
    text = text.strip()
    match = _JSONP_RE.match(text) or _ASSIGNMENT_RE.match(text)
    try:
        return json.loads(match.group("json") if match else text)
    except (ValueError, RecursionError) as error:  # also a number or nesting past Python's limits
        raise MalformedListError(f"not JSON or JSONP: {error}") from None


def sina_roll(text: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """Sina roll API: ``result.status.code`` 0 and ``result.data[]`` with ``url``, ``ctime``."""
    result = _dig(load_json_or_jsonp(text), "result")
    code = _dig(result, "status", "code")
    if str(code) != "0":
        message = _dig(result, "status").get("msg", "")
        raise MalformedListError(f"status code {code}: {message}")
    return _entries(_dig(result, "data"), "url", "ctime", base_url, zone)


def netease_jsonp(text: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """NetEase ``data_callback([...])`` lists: items with ``docurl`` and ``time`` (MM/DD/YYYY)."""
    return _entries(load_json_or_jsonp(text), "docurl", "time", base_url, zone)


def xinhua_datasource(text: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """Xinhua ``ds_<id>.json``: ``datasource[]`` with ``publishUrl`` and ``publishTime``."""
    items = _dig(load_json_or_jsonp(text), "datasource")
    return _entries(items, "publishUrl", "publishTime", base_url, zone)


def csdn_business_list(text: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """CSDN user article list: ``code`` 200 and ``data.list[]`` with ``url``, ``postTime``."""
    data = load_json_or_jsonp(text)
    _check_csdn_code(data)
    return _entries(_dig(data, "data", "list"), "url", "postTime", base_url, zone)


def csdn_hot_rank(text: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """CSDN site-wide hot list: ``code`` 200 and ``data[]`` with ``articleDetailUrl`` (undated)."""
    data = load_json_or_jsonp(text)
    _check_csdn_code(data)
    return _entries(_dig(data, "data"), "articleDetailUrl", "", base_url, zone)


API_PARSERS: Mapping[str, ApiParser] = MappingProxyType(
    {
        "sina_roll": sina_roll,
        "netease_jsonp": netease_jsonp,
        "xinhua_datasource": xinhua_datasource,
        "csdn_business_list": csdn_business_list,
        "csdn_hot_rank": csdn_hot_rank,
    }
)


def _check_csdn_code(data: Any) -> None:
    """CSDN APIs answer ``code: 200`` on success, whatever the HTTP status."""
    if _dig(data, "code") != 200:
        raise MalformedListError(f"code {data.get('code')!r}: {data.get('message', '')}")


def _dig(data: Any, *path: str) -> Any:
    """``data[path[0]][path[1]]…``, raising `MalformedListError` naming the missing step."""
    for depth, key in enumerate(path):
        if not isinstance(data, dict) or key not in data:
            raise MalformedListError(f"no {'.'.join(path[: depth + 1])} in the response")
        data = data[key]
    return data


def _entries(items: Any, url_key: str, date_key: str, base_url: str, zone: tzinfo) -> list[Entry]:
    """Entries of a list of objects; objects without a string URL are skipped."""
    if not isinstance(items, list):
        raise MalformedListError(f"expected a list of items, got {type(items).__name__}")
    return [
        Entry(
            absolute_url(base_url, item[url_key].strip()), parse_datetime(item.get(date_key), zone)
        )
        for item in items
        if isinstance(item, dict) and isinstance(item.get(url_key), str) and item[url_key].strip()
    ]
