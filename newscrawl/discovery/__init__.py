"""Link discovery from lists: feeds, sitemaps and JSON(P) list APIs (no Scrapy requests here).

The spider turns the `Entry` objects these parsers return into requests; keeping the
parsers free of Scrapy's requests and responses (they use only its gunzip and sitemap
reader) makes them testable on plain bytes.
"""

from newscrawl.discovery.apis import API_PARSERS, load_json_or_jsonp
from newscrawl.discovery.dates import parse_datetime, parse_since
from newscrawl.discovery.feeds import parse_feed
from newscrawl.discovery.model import Entry, MalformedListError
from newscrawl.discovery.sitemaps import Sitemap, parse_sitemap
from newscrawl.discovery.sniff import sniff_kind

__all__ = [
    "API_PARSERS",
    "Entry",
    "MalformedListError",
    "Sitemap",
    "load_json_or_jsonp",
    "parse_datetime",
    "parse_feed",
    "parse_since",
    "parse_sitemap",
    "sniff_kind",
]
