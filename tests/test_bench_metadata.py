"""The field measures' definitions of a right author and a right day (bench/bench_metadata.py),
held to the cases they were written for, so that a tweak to the rule cannot quietly flatter
or harm the published precision."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import ModuleType

import pytest


@pytest.mark.parametrize(
    ("ours", "gold"),
    [
        ("Jane Doe", "By Jane Doe"),
        ("JANE DOE", "jane doe"),
        ("Jane Doe", "Jane Doe and John Roe"),
        ("John Roe", "Jane Doe, John Roe"),
        ("Jane Doe and John Roe", "Jane Doe, John Roe"),
        ("Jane Doe", "Jane Doe | Staff writer"),
        ("Nathan Willis", "By Nathan Willis\n    March 25, 2015"),
        ("Rob Ewaschuk", "Written by Rob Ewaschuk\n    Edited by Betsy Beyer"),
        ("Bradley M. Kuhn", "Bradley M. Kuhn (http://ebb.org/bkuhn/)"),
        ("Lucas Nolan", "by Lucas Nolan22 Dec 2016651"),
        ("Jane Doe", "Jane Doe Staff Writer"),
        ("张倩", "作者：张倩"),
        ("张倩", "文/张倩"),
        ("赵 培", "赵培"),
        ("王燕平 方云凤", "刘国栋 周炜 王燕平 方云凤"),
        ("周思博", "周思博 (Joel Spolsky)"),
        ("宋晨、田中全", "宋晨、田中全、胡喆"),
        ("Mac & i", "Mac & i"),
    ],
)
def test_right_authors(bench: ModuleType, ours: str, gold: str) -> None:
    assert bench.author_right(ours, gold)


@pytest.mark.parametrize(
    ("ours", "gold"),
    [
        ("", "Jane Doe"),
        ("Staff", "Jane Doe | Staff writer"),
        ("Staff writer", "Jane Doe | Staff writer"),
        ("March", "By Nathan Willis\n    March 25, 2015"),
        ("http", "Bradley M. Kuhn (http://ebb.org/bkuhn/)"),
        ("Doe", "Jane Doe"),
        ("BBC News", "Jane Doe"),
        ("By Jane Doe", "Jane Doe"),
        ("Jane Doe John", "Jane Doe"),
        ("总台记者 张倩", "张倩"),
        ("zboygirl 阅读", "zboygirl"),
        ("刘满仓 责任", "刘满仓"),
        ("新华网", "邹伟"),
        ("文涛", "文/涛"),
    ],
)
def test_wrong_authors(bench: ModuleType, ours: str, gold: str) -> None:
    assert not bench.author_right(ours, gold)


def test_byline_names_drop_labels_roles_dates_and_urls(bench: ModuleType) -> None:
    assert bench.byline_names("By Brenda  Goodman, MA\n   WebMD Health News") == [
        "brendagoodman",
        "webmdhealthnews",
    ]
    assert bench.byline_names("Martin Untersinger (avec Damien Leloup et Morgane Tual)") == [
        "martinuntersinger",
        "damienleloup",
        "morganetual",
    ]
    assert bench.byline_names("Ann Jones (https://example.org/ann)") == ["annjones"]


@pytest.mark.parametrize(
    ("ours", "precision", "gold", "beijing", "right"),
    [
        # A gold with an offset: ours is read on the gold's calendar.
        ("2015-07-10T09:53+00:00", "second", "2015-07-10T05:53-04:00", False, True),
        ("2019-01-03T00:30+01:00", "second", "2019-01-03T07:00Z", False, False),
        # Without one, readability compares in the offset we found ...
        ("2017-11-03T03:01+08:00", "second", "2017-11-03 03:01:00.000000", False, True),
        ("2018-12-21T23:55-05:00", "second", "2018-12-21T23:55:00", False, True),
        # ... and zh_cwce/sites in Beijing time.
        ("2022-02-06T12:48+00:00", "second", "2022-02-06 13:48", True, True),
        ("2022-02-06T20:48+00:00", "second", "2022-02-06 13:48", True, False),
        # A coarse gold is met as far as it goes; a coarse value never meets a finer gold.
        ("1998-03-01T00:00+08:00", "month", "1998-3", True, True),
        ("2018-08-23T00:00+08:00", "day", "2018", True, True),
        ("2024-06-01T00:00+00:00", "month", "2024-06-25", False, False),
    ],
)
def test_right_day(
    bench: ModuleType, ours: str, precision: str, gold: str, beijing: bool, right: bool
) -> None:
    day = bench.gold_day(gold)
    assert day is not None
    zone = bench.SHANGHAI if beijing else None
    assert bench.right_day(datetime.fromisoformat(ours), precision, day, zone) is right


def test_gold_day_skips_values_that_are_not_dates(bench: ModuleType) -> None:
    assert bench.gold_day("刘涛") is None
    assert bench.gold_day("2021-11-01T10:52:50+0100") == (
        (2021, 11, 1),
        timezone(timedelta(hours=1)),
    )
