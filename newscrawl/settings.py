"""Every Scrapy default of the project in one place (`scrapy.cfg` points here).

newscrawl's pipelines, middlewares and extensions are not listed here: `NewscrawlAddon`
(newscrawl.addon, in ``ADDONS``) wires them, for this project and any other that enables it.
The ``NEWSCRAWL_*`` and ``SPIDERMON_*`` values below are that add-on's defaults elsewhere too.
"""

import os

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"

# One spider per site config (newscrawl/configs/sites/<name>.toml), see newscrawl.spiders.loader.
SPIDER_LOADER_CLASS = "newscrawl.spiders.loader.SiteSpiderLoader"
NEWSCRAWL_BUILTIN_SITES = True
"""Load the site configs bundled as package data (newscrawl/configs/sites): read through
importlib.resources, so a wheel or a zipped scrapyd egg carries them too."""
NEWSCRAWL_SITES_DIR = os.environ.get("NEWSCRAWL_SITES_DIR", "")
"""A user's directory of site configs; its files add sites or replace bundled ones."""

# Politeness fit for real portals (about one request per second per host; sites.md).
ROBOTSTXT_OBEY = True
# USER_AGENT is newscrawl's own, set by the add-on (newscrawl.identity): newscrawl/<version>
# (+NEWSCRAWL_CONTACT); robots.txt is read for the token "newscrawl". A site config's
# user_agent replaces the agent for that site only.
NEWSCRAWL_CONTACT = os.environ.get("NEWSCRAWL_CONTACT", "")
"""A URL or e-mail address where a site's operators can reach whoever runs the crawl, sent
in the User-Agent: ``newscrawl/0.1.0 (+https://example.org/crawler)``."""
DEFAULT_REQUEST_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8",
}
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
# A spider callback yields at most a handful of items (one per article page); Scrapy's default
# of 100 starts that many asyncio tasks per callback, which measurably slows a replay crawl
# (bench/bench_replay_crawl.py: 2,000 pages 10.1 s -> 8.0 s with 10).
CONCURRENT_ITEMS = 10
# Downloaded pages waiting for the spider and the pipelines, in bytes (Scrapy: 5 MB). On Ctrl-C
# or SIGTERM Scrapy finishes every page downloaded before it stops: with a slow pipeline stage
# 5 MB of news pages (50-100 pages) took minutes; 512 KB is a few pages of them.
SCRAPER_SLOT_MAX_ACTIVE_SIZE = 512 * 1024
DOWNLOAD_DELAY = 1.0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 2.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 32 * 1024 * 1024
DOWNLOAD_WARNSIZE = 8 * 1024 * 1024
RETRY_TIMES = 3
RETRY_GIVE_UP_LOG_LEVEL = "DEBUG"  # a failed request is one line, the spider's errback logs it
# Retries of 429/503 wait: BackoffMiddleware raises the host's slot delay (RetryMiddleware
# alone re-asks at once).
NEWSCRAWL_BACKOFF_HTTP_CODES = [429, 503]
NEWSCRAWL_BACKOFF_START_DELAY = 10.0
"""Seconds of the first back-off when the server sends no Retry-After; doubles each time."""
NEWSCRAWL_BACKOFF_MAX_DELAY = 300.0

# Chinese text in feeds as UTF-8, not \uXXXX.
FEED_EXPORT_ENCODING = "utf-8"

REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# WARC record and replay (newscrawl.archive): both off unless their setting names a path.
NEWSCRAWL_ARCHIVE = ""
"""Record every response of the crawl as WARC (.warc.gz compresses), in numbered parts
next to this name: x.warc.gz -> x-00000.warc.gz, x-00001.warc.gz, … (a new one per crawl)."""
NEWSCRAWL_ARCHIVE_MAX_BYTES = 1_000_000_000
"""Start the next part of NEWSCRAWL_ARCHIVE once one reaches this size (1 GB); 0: never."""
NEWSCRAWL_REPLAY = ""
"""Serve the crawl from these WARC files, directories, or NEWSCRAWL_ARCHIVE names (all their
parts), comma-separated; no network."""

# newscrawl's components (newscrawl.addon), and the switch to distributed crawling.
ADDONS = {
    "newscrawl.addon.NewscrawlAddon": 0,
    "newscrawl.distributed.DistributedAddon": 0,
}

# `scrapy crawl` with a known-spider check and an exit status that says whether the crawl
# did its job (newscrawl.scrapy_commands.crawl).
COMMANDS_MODULE = "newscrawl.scrapy_commands"

# The run summary and the crawl's verdict (newscrawl.monitoring): Spidermon runs the close
# suite, the summary extension (after it) logs one line and writes NEWSCRAWL_SUMMARY_FILE.
SPIDERMON_ENABLED = True
SPIDERMON_SPIDER_CLOSE_MONITORS = ("newscrawl.monitoring.monitors.CrawlSuite",)
SPIDERMON_ADD_FIELD_COVERAGE = False
"""Spidermon's share of articles with each field (spidermon_field_coverage/ArticleItem/<field>),
for coverage monitors: on, it updates the stats once per field of every article (its cost
is in CHANGELOG.md). The run summary counts the publish time's and the author's share
itself (`newscrawl.monitoring.extension`)."""
SPIDERMON_FIELD_COVERAGE_SKIP_NONE = True
NEWSCRAWL_FAIL_MAX_FAILED_SHARE = 0.5
"""A crawl fails (exit status 1) when more than this share of its requests failed for good
(after retries): a site that is down or blocks us."""
NEWSCRAWL_FAIL_MIN_REQUESTS = 10
"""The failed share is judged over at least this many requests."""
NEWSCRAWL_STOP_DRAIN_SECONDS = 5.0
"""After Ctrl-C or SIGTERM, pages already fetched go on through extraction and the item
pipelines for this long; those still waiting then go back to the request queue (a JOBDIR
keeps them for the resumed crawl), so a stopped crawl closes within seconds with its store,
feed and run summary complete (newscrawl.middlewares.stop). A second Ctrl-C forces Scrapy's
unclean stop at once."""
NEWSCRAWL_SUMMARY_FILE = ""
"""Write the run summary (JSON) here at the end of the crawl; the scheduler sets it per run."""
NEWSCRAWL_GC_FREEZE = True
"""Leave the objects that exist when the spider opens out of garbage collection
(newscrawl.gc_freeze: 13% of a replay crawl's time went to walking them), and collect the
youngest generation less often from then on (4-5% of it)."""

# Raw pages -> articles (newscrawl.pipelines.extract).
NEWSCRAWL_EXTRACT_METHOD = "default"
"""The `newscrawl.extract` method the pipeline runs (paper or default)."""
NEWSCRAWL_EXTRACT_PROCESSES = 0
"""Extract in this many worker processes (0: in the crawl's own thread). A polite crawl of
live sites waits on the network and needs none; a replay, or a fast crawl of many sites,
gets the crawl's thread back for downloading and uses more cores (BENCHMARKS.md)."""
NEWSCRAWL_MIN_CONFIDENCE: float | None = None
"""Drop articles whose extraction confidence (0 to 1: how sure the extractor is that the body
is the article) is below this, counted as newscrawl/dropped/low confidence; None or empty:
keep all. An article whose method gives no confidence (the paper method) is always kept."""

# Where `scrapy crawl <site>` writes when the user gives no -o/-O/FEEDS (%(name)s is the
# spider, %(time)s the start time); set it empty to write no default feed.
NEWSCRAWL_DEFAULT_FEED = "data/%(name)s/%(time)s.jsonl"

# Article store (newscrawl.store, newscrawl.pipelines.store): SQLite at data/newscrawl.db
# unless a database URL is given; the incremental skip (newscrawl.middlewares.incremental)
# reads the same store and runs first so a skipped page costs nothing downstream.
NEWSCRAWL_DB_ENABLED = True
NEWSCRAWL_DB_URL = ""
"""Database URL (sqlite:///… or postgresql://user@host/db); empty: the NEWSCRAWL_DB_URL
environment variable, else sqlite:///data/newscrawl.db."""
NEWSCRAWL_DB_BATCH_SIZE = 100
NEWSCRAWL_DB_BATCH_SECONDS = 5.0
"""A batch commits at this many articles or this age, whichever comes first."""
NEWSCRAWL_DB_SPOOL_DIR = "data/spool"
"""Where articles go (JSONL) when the database fails mid-crawl."""
NEWSCRAWL_NEAR_DUPLICATE_BITS = 6
"""Simhash bits two bodies may differ in to be marked near-duplicates (newscrawl.fingerprint)."""
NEWSCRAWL_INCREMENTAL = True
"""Skip article requests already stored (-a recrawl=true turns it off for a run)."""
NEWSCRAWL_RECRAWL_AGE = 0
"""Fetch stored articles again while younger than this (seconds or 2d/12h; 0: never)."""
NEWSCRAWL_TRACKING_PARAMS: list[str] = []
"""Query parameters a site adds to the defaults of newscrawl.urls (tracking only)."""
NEWSCRAWL_HOST_TWINS: dict[str, str] = {}
"""Twin hosts folded into one canonical URL, e.g. {"m.sohu.com": "www.sohu.com"}."""

# Distributed crawling (newscrawl.distributed): with a Redis URL, workers on any number of
# machines share one request queue and one seen-set through scrapy-redis (DistributedAddon).
NEWSCRAWL_REDIS_URL = os.environ.get("NEWSCRAWL_REDIS_URL", "")
"""redis://[:password@]host:port/db; empty: this process crawls alone (Scrapy's scheduler)."""
NEWSCRAWL_REDIS_KEY_PREFIX = "newscrawl"
"""Keys are <prefix>:<spider>:requests|seen|workers|busy."""
NEWSCRAWL_REDIS_IDLE_SECONDS = 30.0
"""A worker closes after this long with the shared queue empty and no other worker busy."""
NEWSCRAWL_REDIS_WORKER_TIMEOUT = 30.0
"""A worker whose heartbeat is this old counts as gone (killed); others stop waiting for it."""
