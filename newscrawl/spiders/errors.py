"""The mistakes ``scrapy crawl`` can report before a crawl starts, each as one line.

Every class is a Scrapy `UsageError` without the help text: raised inside a Scrapy command
(the spider loader's ``load``, or a check the crawl command calls), Scrapy's command line
prints the usage line and ``scrapy crawl: error: <message>`` and exits 2, no traceback.
"""

from __future__ import annotations

from typing import Any

from scrapy.exceptions import UsageError


class CrawlUsageError(UsageError):
    """A crawl's command line or configuration is wrong; the message is one line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("print_help", False)  # the fix is in the message, not in --help
        super().__init__(*args, **kwargs)

    def __str__(self) -> str:
        return Exception.__str__(self)  # not KeyError's quoted repr in the subclasses below


class SpiderArgumentError(CrawlUsageError, ValueError):
    """A bad ``-a name=value`` (an unknown name, a value that does not parse)."""


class SitesDirError(CrawlUsageError):
    """``NEWSCRAWL_SITES_DIR`` names no directory: the user's sites would be silently missing."""


class BrokenSiteError(CrawlUsageError, KeyError):
    """The site asked for has an invalid config. A `KeyError` too, which is what a spider
    loader's ``load`` raises for a name it cannot load."""


class UnknownSpiderError(CrawlUsageError, KeyError):
    """No spider or site has the name asked for (a `KeyError`, as for `BrokenSiteError`)."""
