"""``scrapy crawl``, with the checks and the exit status a scheduled crawl needs.

Scrapy's own command exits 1 only when the crawl could not start ("bootstrap failed") and 0
for any crawl that ran, even one that fetched nothing (scrapy#1231: the maintainers leave
the judgement to the project). This one checks, before starting, what a user can get wrong
(`newscrawl.spiders.preflight`: the spider's name, with the list of known ones; its site
config; the ``-a`` arguments; ``NEWSCRAWL_SITES_DIR``; the ``NEWSCRAWL_*`` settings; the
database, last, since checking it creates it) and stops with one line and exit status 2,
having created nothing; after the crawl, it asks whether the crawl did its job: the
monitors of `newscrawl.monitoring.monitors` record why a crawl failed (or the store stopped
it), the crawl's last log line says so, and the command exits `FAILED_CRAWL` then.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawl

from newscrawl.crawl_contract import store_failure
from newscrawl.monitoring.monitors import FAILED_CRAWL
from newscrawl.monitoring.summary import FAILED_RUN
from newscrawl.spiders.errors import UnknownSpiderError
from newscrawl.spiders.preflight import check_crawl


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            super().run(args, opts)  # Scrapy's own usage errors
            return
        assert self.crawler_process is not None
        loader = self.crawler_process.spider_loader
        try:
            check_crawl(loader, self.crawler_process.settings, args[0], opts.spargs)
        except UnknownSpiderError:
            known = ", ".join(loader.list())
            raise UnknownSpiderError(f"no spider {args[0]!r}; the spiders are: {known}") from None
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        elif store_failure(crawler) or (crawler.stats and crawler.stats.get_value(FAILED_RUN)):
            self.exitcode = FAILED_CRAWL
