"""Site configs: one TOML file per site, validated into a `SiteConfig` the spider runs on."""

from newscrawl.sites.config import (
    EntryPoint,
    Politeness,
    SiteConfig,
    SiteConfigError,
    load_site,
    parse_site,
)
from newscrawl.sites.registry import FoundSites, find_sites, scan_sites

__all__ = [
    "EntryPoint",
    "FoundSites",
    "Politeness",
    "SiteConfig",
    "SiteConfigError",
    "find_sites",
    "load_site",
    "parse_site",
    "scan_sites",
]
