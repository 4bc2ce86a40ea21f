"""`NewscrawlAddon`: newscrawl's crawl machinery for any Scrapy project, in one ``ADDONS`` line.

A spider that yields `newscrawl.items.RawPage` items (and marks its article requests with
``ARTICLE_META``) gets what ``scrapy crawl <site>`` has in this project: extraction, the
article store, the incremental skip, WARC record and replay, the back-off from overloaded
hosts and the run summary with its verdict. This project's settings.py enables the add-on
too, so these components are wired here and nowhere else.

A project's own choices win, as Scrapy's add-on guide asks:

- newscrawl's settings (the ``NEWSCRAWL_*`` and ``SPIDERMON_*`` values of
  `newscrawl.settings`, where each is documented) are set at the ``addon`` priority, under
  a project's, a spider's and ``-s``;
- a component is added to its dict only if the dict does not name it yet (as a class or a
  path), so ``ITEM_PIPELINES = {"newscrawl.pipelines.store.StorePipeline": None}`` turns the
  store off and another number moves it;
- a dict given whole by a spider's ``custom_settings`` or by ``-s`` (``-s ITEM_PIPELINES={}``)
  replaces newscrawl's components as it replaces the project's own.

Every component is always added: each switches itself off (``NotConfigured``) by its own
setting, e.g. the store with ``NEWSCRAWL_DB_ENABLED = False``, the recorder while
``NEWSCRAWL_ARCHIVE`` is empty; Scrapy's "Enabled …" log lines list those that run.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.settings import SETTINGS_PRIORITIES

from newscrawl import settings as newscrawl_settings
from newscrawl.archive.middleware import ArchiveRecorderMiddleware, ReplayMiddleware
from newscrawl.gc_freeze import FreezeStartupObjects
from newscrawl.identity import ROBOTS_TOKEN, user_agent
from newscrawl.middlewares.backoff import BackoffMiddleware
from newscrawl.middlewares.incremental import IncrementalMiddleware
from newscrawl.middlewares.meta_refresh import QuickMetaRefreshMiddleware
from newscrawl.middlewares.stop import StopDrainMiddleware
from newscrawl.middlewares.unreachable import UnreachableHostMiddleware
from newscrawl.monitoring.extension import RunSummaryExtension
from newscrawl.monitoring.network_errors import NetworkErrorsInOneLine
from newscrawl.monitoring.report import OneLineSpidermon
from newscrawl.pipelines.extract import ExtractPipeline
from newscrawl.pipelines.store import StorePipeline

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

COMPONENTS: dict[str, dict[type, int]] = {
    "ITEM_PIPELINES": {
        ExtractPipeline: 300,  # raw pages -> articles: a project's pipeline after it sees these
        StorePipeline: 800,
    },
    "DOWNLOADER_MIDDLEWARES": {
        # First: a stored article's request is dropped before anything else spends on it.
        IncrementalMiddleware: 50,
        # Just outside RetryMiddleware (550): sees a 429/503 first and slows the host's slot
        # down before the retry is queued.
        BackoffMiddleware: 560,
        # Just inside RetryMiddleware: sees the failures it gave up on, stops retrying a host
        # that cannot be reached.
        UnreachableHostMiddleware: 540,
        # Outermost, past HttpCacheMiddleware (900): the recorder sees the body as the server
        # sent it (before HttpCompressionMiddleware, 590, decompresses it) and the request
        # with every header set; replay answers there, so the built-in middlewares
        # decompress, redirect and count stats as they would live.
        ArchiveRecorderMiddleware: 950,
        ReplayMiddleware: 960,
    },
    "SPIDER_MIDDLEWARES": {
        # Outermost (output runs from high to low numbers): sees the items as they go to the
        # pipelines, and gives a stopping crawl's backlog back to the queue.
        StopDrainMiddleware: 5,
    },
    "EXTENSIONS": {
        FreezeStartupObjects: 0,
        NetworkErrorsInOneLine: 0,
        # Spidermon runs the close suite (the verdict); the summary, after it, includes it.
        OneLineSpidermon: 500,
        RunSummaryExtension: 600,
    },
}
"""Component dict setting -> newscrawl's components in it, by order."""
REPLACED: dict[str, tuple[tuple[type, type], ...]] = {
    # Reads a page for a refresh only when its first bytes may hold one.
    "DOWNLOADER_MIDDLEWARES_BASE": ((MetaRefreshMiddleware, QuickMetaRefreshMiddleware),),
}
"""Scrapy's built-in components that newscrawl's take the place of (and the order of)."""

DEFAULTS: dict[str, Any] = {
    name: value
    for name, value in vars(newscrawl_settings).items()
    if name.startswith(("NEWSCRAWL_", "SPIDERMON_"))
}
"""newscrawl's settings and the Spidermon configuration of its verdict, as `newscrawl.settings`
sets them for this project; another project gets the same defaults."""

_PROJECT = SETTINGS_PRIORITIES["project"]
_ADDON = SETTINGS_PRIORITIES["addon"]


class NewscrawlAddon:
    """Enable newscrawl's pipelines, middlewares and extensions, and its settings' defaults."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.update(DEFAULTS, priority="addon")
        identity = {
            "USER_AGENT": user_agent(settings.get("NEWSCRAWL_CONTACT") or ""),
            "ROBOTSTXT_USER_AGENT": ROBOTS_TOKEN,
        }
        for name, value in identity.items():  # unless a project, a spider or -s set them
            if (settings.getpriority(name) or 0) < _ADDON:
                settings.set(name, value, priority="addon")
        for name, components in COMPONENTS.items():
            if (settings.getpriority(name) or 0) > _PROJECT:
                continue  # given whole by a spider or -s: it is the complete list
            for component, order in components.items():
                settings.setdefault_in_component_priority_dict(name, component, order)
        for name, pairs in REPLACED.items():
            for built_in, ours in pairs:
                with suppress(KeyError):  # a project that took it out of the base list
                    settings.replace_in_component_priority_dict(name, built_in, ours)
