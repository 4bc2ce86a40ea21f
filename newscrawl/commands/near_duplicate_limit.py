"""The near-duplicate limit of the commands that write or index a store, as the crawl's.

``--near-duplicate-bits N``, else ``NEWSCRAWL_NEAR_DUPLICATE_BITS`` from the project's
settings (those ``scrapy crawl`` run here reads: newscrawl/settings.py, or a project's own
that enables the add-on; unset there, the add-on's default), both read and checked as the
crawl reads the setting (`newscrawl.settings_check`). A crawl run with
``-s NEWSCRAWL_NEAR_DUPLICATE_BITS=N`` needs the option.
"""

from __future__ import annotations

import argparse

from scrapy.settings import BaseSettings
from scrapy.utils.project import get_project_settings

from newscrawl import settings as defaults
from newscrawl.settings_check import SettingValueError, read_setting, setting_value

SETTING = "NEWSCRAWL_NEAR_DUPLICATE_BITS"


def add_near_duplicate_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--near-duplicate-bits N``; `near_duplicate_bits` gives the limit to use."""
    parser.add_argument(
        "--near-duplicate-bits",
        type=_given,
        metavar="N",
        help="mark an article a near-duplicate of a stored one at most N simhash bits apart; "
        "0 turns near-duplicate detection off, exact copies are still found (default: the "
        f"project's {SETTING}, as the crawl; unset, {getattr(defaults, SETTING)})",
    )


def near_duplicate_bits(args: argparse.Namespace) -> int:
    """The limit given as ``--near-duplicate-bits``, else the project's setting. Raises
    `SettingValueError` (one line) for a setting the crawl could not use either."""
    if args.near_duplicate_bits is not None:
        return int(args.near_duplicate_bits)
    settings = get_project_settings()
    settings.set(SETTING, getattr(defaults, SETTING), "default")  # the project's wins
    try:
        return int(read_setting(settings, SETTING))
    except SettingValueError as error:
        raise SettingValueError(f"{error} (the project's settings)") from None


def _given(value: str) -> int:
    """A ``--near-duplicate-bits`` value, read and checked as the setting."""
    try:
        return int(setting_value(BaseSettings({SETTING: value}), SETTING))
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} {error}") from None
