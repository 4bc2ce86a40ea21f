"""Distributed crawling on scrapy-redis: N workers share one request queue and one seen-set.

Setting ``NEWSCRAWL_REDIS_URL`` (``-s`` or the environment variable) switches a crawl over:
`DistributedAddon` (in ``ADDONS``) then sets scrapy-redis's scheduler and dupefilter, and
`IdleClose` decides when a worker may stop. The store is the shared PostgreSQL
(``NEWSCRAWL_DB_URL``); Redis only coordinates the run.
"""

from newscrawl.distributed.addon import DistributedAddon

__all__ = ["DistributedAddon"]
