"""An item pipeline stage that holds the crawl's thread for a second per item, as extraction
of a large page does when it runs on the crawl's thread (``NEWSCRAWL_EXTRACT_PROCESSES = 0``):
nothing else of the crawl runs meanwhile, signal handling included."""

from __future__ import annotations

import time
from typing import Any

SECONDS_PER_ITEM = 1.0


class BlockingStage:
    def process_item(self, item: Any) -> Any:
        time.sleep(SECONDS_PER_ITEM)
        return item
