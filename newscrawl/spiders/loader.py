"""A spider loader that adds one spider per site config to Scrapy's module spiders.

Set as ``SPIDER_LOADER_CLASS``: ``scrapy list``, ``scrapy crawl <site>`` and scrapyd see
a spider for every ``*.toml`` bundled in ``newscrawl/configs/sites`` (package data, unless
``NEWSCRAWL_BUILTIN_SITES`` is off) and in the user's ``NEWSCRAWL_SITES_DIR`` (which
overrides a bundled site of the same name). Python spiders in ``SPIDER_MODULES`` keep
working. A bad config stops the loader with its file, key and problem, unless
``SPIDER_LOADER_WARN_ONLY`` is set, in which case only site spiders are skipped with a
warning.
"""

from __future__ import annotations

import builtins
import warnings
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.spiderloader import SpiderLoader

from newscrawl.sites import SiteConfig, SiteConfigError, find_sites
from newscrawl.spiders.site import SiteSpider

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.settings import BaseSettings


def site_dirs(settings: BaseSettings) -> list[Traversable]:
    """The directories searched for site configs, the user's last so it overrides.

    The bundled ones are package data, a folder inside the zipped egg when scrapyd runs us.
    """
    dirs: list[Traversable] = []
    if settings.getbool("NEWSCRAWL_BUILTIN_SITES"):
        dirs.append(files("newscrawl") / "configs" / "sites")
    user = settings.get("NEWSCRAWL_SITES_DIR")
    if user:
        dirs.append(Path(user).expanduser())
    return dirs


def build_spider_class(site: SiteConfig) -> type[SiteSpider]:
    """A `SiteSpider` subclass bound to `site` (what ``scrapy crawl <site.name>`` runs)."""
    class_name = "".join(part.capitalize() for part in site.name.replace("-", "_").split("_"))
    return type(
        f"{class_name}Spider",
        (SiteSpider,),
        {
            "name": site.name,
            "site": site,
            "allowed_domains": list(site.allowed_domains),
            "__module__": SiteSpider.__module__,
            "__doc__": site.description or f"Crawl {site.name} as {site.path} describes.",
        },
    )


class SiteSpiderLoader:
    """Module spiders (Scrapy's `SpiderLoader`) plus one generated spider per site config."""

    def __init__(self, settings: BaseSettings) -> None:
        self._modules = SpiderLoader.from_settings(settings)
        self._sites: dict[str, type[SiteSpider]] = {}
        try:
            sites = find_sites(site_dirs(settings))
        except SiteConfigError as error:
            if not settings.getbool("SPIDER_LOADER_WARN_ONLY"):
                raise
            warnings.warn(f"site spiders not loaded: {error}", RuntimeWarning, stacklevel=2)
            return
        clashes = sorted(set(sites) & set(self._modules.list()))
        if clashes:
            site = sites[clashes[0]]
            raise SiteConfigError(site.path, "(file name)", "a Python spider has this name too")
        self._sites = {name: build_spider_class(site) for name, site in sites.items()}

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        return cls(settings)

    def load(self, spider_name: str) -> type[Spider]:
        if spider_name in self._sites:
            return self._sites[spider_name]
        return self._modules.load(spider_name)

    def list(self) -> list[str]:
        return sorted([*self._sites, *self._modules.list()])

    def find_by_request(self, request: Request) -> builtins.list[str]:
        sites = [name for name, cls in self._sites.items() if cls.handles_request(request)]
        return sites + self._modules.find_by_request(request)
