"""Article extraction from HTML by text-line features. A pure library: no Scrapy import.

>>> from newscrawl.extract import extract
>>> article = extract(page_bytes, url)
>>> article.title, article.body
"""

from newscrawl.extract.api import extract
from newscrawl.extract.decode import Decoded, decode_html
from newscrawl.extract.model import METHODS, Article, LineDecision, Method, Options

__all__ = [
    "METHODS",
    "Article",
    "Decoded",
    "LineDecision",
    "Method",
    "Options",
    "decode_html",
    "extract",
]
