"""The extension that leaves the crawl's startup objects out of garbage collection."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from scrapy import Spider
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from newscrawl import settings as project_settings
from newscrawl.addon import COMPONENTS
from newscrawl.gc_freeze import YOUNG_THRESHOLD, FreezeStartupObjects


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # the rest of the test session collects as usual
    gc.set_threshold(*thresholds)


def test_objects_existing_when_the_spider_opens_are_frozen(unfrozen: None) -> None:
    crawler = get_crawler(Spider, settings_dict={"NEWSCRAWL_GC_FREEZE": True})
    extension = FreezeStartupObjects.from_crawler(crawler)
    startup = [object() for _ in range(3)]
    assert gc.get_freeze_count() == 0 and _collected(startup)
    extension.spider_opened(Spider("s"))
    assert gc.get_freeze_count() > 0
    assert not _collected(startup)  # the permanent generation: no collection walks it
    later = [object()]
    assert _collected(later)


def test_the_youngest_generation_is_collected_less_often_once_open(unfrozen: None) -> None:
    crawler = get_crawler(Spider, settings_dict={"NEWSCRAWL_GC_FREEZE": True})
    older = gc.get_threshold()[1:]
    FreezeStartupObjects.from_crawler(crawler).spider_opened(Spider("s"))
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *older)


def _collected(thing: object) -> bool:
    """Whether `thing` is in a generation the collector walks."""
    return any(tracked is thing for tracked in gc.get_objects())


def test_the_setting_turns_it_off() -> None:
    crawler = get_crawler(Spider, settings_dict={"NEWSCRAWL_GC_FREEZE": False})
    with pytest.raises(NotConfigured):
        FreezeStartupObjects.from_crawler(crawler)


def test_the_project_enables_it() -> None:
    assert "newscrawl.addon.NewscrawlAddon" in project_settings.ADDONS
    assert FreezeStartupObjects in COMPONENTS["EXTENSIONS"]
    assert project_settings.NEWSCRAWL_GC_FREEZE is True
