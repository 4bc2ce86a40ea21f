"""Item pipeline stages that take a second per item (a slow service or computation a project
may add); ``-s ITEM_PIPELINES`` puts one between newscrawl's extract and store."""

from __future__ import annotations

import asyncio
from typing import Any

SECONDS_PER_ITEM = 1.0


class SlowSerialStage:
    """One item at a time, a second each, without blocking the crawl (a slow remote service):
    downloads go on meanwhile, so items wait for it."""

    def __init__(self) -> None:
        self._one_at_a_time = asyncio.Lock()

    async def process_item(self, item: Any) -> Any:
        async with self._one_at_a_time:
            await asyncio.sleep(SECONDS_PER_ITEM)
        return item
