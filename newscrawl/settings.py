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
