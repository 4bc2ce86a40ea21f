"""Finding the site configs: the project's ``configs/sites`` plus a user directory."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from newscrawl.sites.config import SiteConfig, load_site


def find_sites(directories: Iterable[Path]) -> dict[str, SiteConfig]:
    """Every ``*.toml`` in `directories`, by site name (the file name without ``.toml``).

    A later directory overrides an earlier one, so a user's ``sina.toml`` in
    ``NEWSCRAWL_SITES_DIR`` replaces the bundled one. A missing directory holds no sites.
    Raises `SiteConfigError` on the first invalid file.
    """
    sites: dict[str, SiteConfig] = {}
    for directory in directories:
        for path in sorted(directory.glob("*.toml")):
            config = load_site(path)
            sites[config.name] = config
    return sites
