"""Every Scrapy default of the project in one place (`scrapy.cfg` points here)."""

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"

# Politeness fit for real portals.
ROBOTSTXT_OBEY = True
USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/124.0 Safari/537.36"
)
CONCURRENT_REQUESTS_PER_DOMAIN = 4
AUTOTHROTTLE_ENABLED = True
DOWNLOAD_TIMEOUT = 30

# Chinese text in feeds as UTF-8, not \uXXXX.
FEED_EXPORT_ENCODING = "utf-8"

REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# WARC record and replay (newscrawl.archive): both off unless their setting names a path.
# Outermost on the downloader side, past HttpCacheMiddleware (900): the recorder sees the
# body as the server sent it (before HttpCompressionMiddleware, 590, decompresses it) and the
# request with every header set; replay answers there, so the built-in middlewares
# decompress, redirect and count stats as they would live.
NEWSCRAWL_ARCHIVE = ""
"""Record every response of the crawl to this WARC file (appended; .warc.gz compresses)."""
NEWSCRAWL_REPLAY = ""
"""Serve the crawl from these WARC files or directories (comma-separated); no network."""
DOWNLOADER_MIDDLEWARES = {
    "newscrawl.archive.middleware.ArchiveRecorderMiddleware": 950,
    "newscrawl.archive.middleware.ReplayMiddleware": 960,
}
