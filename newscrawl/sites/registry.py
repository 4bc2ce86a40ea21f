"""Finding the site configs: the bundled ``newscrawl/configs/sites`` plus a user directory."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable

from newscrawl.sites.config import SiteConfig, SiteConfigError, load_site


@dataclass(frozen=True, slots=True)
class FoundSites:
    """The valid site configs by name, and the invalid ones' errors by name."""

    sites: dict[str, SiteConfig] = field(default_factory=dict)
    errors: dict[str, SiteConfigError] = field(default_factory=dict)


def scan_sites(directories: Iterable[Traversable]) -> FoundSites:
    """Every ``*.toml`` in `directories`, by site name (the file name without ``.toml``).

    A later directory overrides an earlier one, so a user's ``sina.toml`` in
    ``NEWSCRAWL_SITES_DIR`` replaces the bundled one, and an invalid user ``sina.toml``
    makes ``sina`` invalid rather than silently crawling the bundled config instead. One
    bad file does not hide the others. A missing directory holds no sites. A directory may
    be a `Path` or a folder inside a zipped egg (what scrapyd runs).
    """
    found = FoundSites()
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir(), key=lambda entry: entry.name):
            if not path.name.endswith(".toml"):
                continue
            name = path.name.removesuffix(".toml")
            try:
                config = load_site(path)
            except SiteConfigError as error:
                found.sites.pop(name, None)
                found.errors[name] = error
                continue
            found.errors.pop(name, None)
            found.sites[config.name] = config
    return found


def find_sites(directories: Iterable[Traversable]) -> dict[str, SiteConfig]:
    """`scan_sites`, strict: raises the `SiteConfigError` of the first invalid file."""
    found = scan_sites(directories)
    for error in found.errors.values():
        raise error
    return found.sites
