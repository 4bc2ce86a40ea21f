"""Finding the site configs: the bundled ``newscrawl/configs/sites`` plus a user directory."""

from __future__ import annotations

from collections.abc import Iterable
from importlib.resources.abc import Traversable

from newscrawl.sites.config import SiteConfig, load_site


def find_sites(directories: Iterable[Traversable]) -> dict[str, SiteConfig]:
    """Every ``*.toml`` in `directories`, by site name (the file name without ``.toml``).

    A later directory overrides an earlier one, so a user's ``sina.toml`` in
    ``NEWSCRAWL_SITES_DIR`` replaces the bundled one. A missing directory holds no sites.
    A directory may be a `Path` or a folder inside a zipped egg (what scrapyd runs).
    Raises `SiteConfigError` on the first invalid file.
    """
    sites: dict[str, SiteConfig] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir(), key=lambda entry: entry.name):
            if path.name.endswith(".toml"):
                config = load_site(path)
                sites[config.name] = config
    return sites
