"""A spider loader that adds one spider per site config to Scrapy's module spiders.

Set as ``SPIDER_LOADER_CLASS``: ``scrapy list``, ``scrapy crawl <site>`` and scrapyd see
a spider for every ``*.toml`` bundled in ``newscrawl/configs/sites`` (package data, unless
``NEWSCRAWL_BUILTIN_SITES`` is off) and in the user's ``NEWSCRAWL_SITES_DIR`` (which
overrides a bundled site of the same name). Python spiders in ``SPIDER_MODULES`` keep
working.

One bad config must not stop every other site: an invalid file is left out, its error (file,
key, problem) kept in `SiteSpiderLoader.config_errors` and logged once as a one-line
warning; loading that site raises `BrokenSiteError` with the same line. A
``NEWSCRAWL_SITES_DIR`` that is not a directory is a warning for ``scrapy list`` and an
error (`SitesDirError`, see `check_sites_dir`) for loading any spider: crawling the bundled
``sina`` when the user's own ``sina.toml`` was meant would be silently wrong.
"""

from __future__ import annotations

import builtins
import logging
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.spiderloader import SpiderLoader

from newscrawl.sites import SiteConfig, SiteConfigError, scan_sites
from newscrawl.spiders.errors import BrokenSiteError, SitesDirError, UnknownSpiderError
from newscrawl.spiders.site import SiteSpider

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


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


def sites_dir_problem(settings: BaseSettings) -> str | None:
    """What is wrong with ``NEWSCRAWL_SITES_DIR`` (one line naming it), or None when it is
    unset or a directory."""
    given = settings.get("NEWSCRAWL_SITES_DIR")
    if not given:
        return None
    path = Path(given).expanduser()
    if path.is_dir():
        return None
    problem = "not a directory" if path.exists() else "no such directory"
    return f"NEWSCRAWL_SITES_DIR={given}: {problem}"


def check_sites_dir(settings: BaseSettings) -> None:
    """Raise `SitesDirError` (one line) when ``NEWSCRAWL_SITES_DIR`` is set to something that
    is not a directory; for ``scrapy crawl`` to call before it starts."""
    problem = sites_dir_problem(settings)
    if problem:
        raise SitesDirError(problem)


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
    """Module spiders (Scrapy's `SpiderLoader`) plus one generated spider per site config.

    `config_errors` maps each site whose config is invalid to its `SiteConfigError`
    (``str()`` of it is the line ``<file>: <key>: <problem>``). Such a site is not listed,
    and `load` raises `BrokenSiteError` for it; the other sites load as usual.
    """

    def __init__(self, settings: BaseSettings) -> None:
        self._modules = SpiderLoader.from_settings(settings)
        self._sites_dir_problem = sites_dir_problem(settings)
        found = scan_sites(site_dirs(settings))
        self.config_errors: dict[str, SiteConfigError] = dict(found.errors)
        for name in sorted(set(found.sites) & set(self._modules.list())):
            clash = "a Python spider has this name too"
            self.config_errors[name] = SiteConfigError(found.sites[name].path, "(file name)", clash)
        self._sites = {
            name: build_spider_class(site)
            for name, site in found.sites.items()
            if name not in self.config_errors
        }
        self._warned = False

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        return cls(settings)

    def load(self, spider_name: str) -> type[Spider]:
        """The spider class; raises `SitesDirError`, `BrokenSiteError` or
        `UnknownSpiderError` (each a one-line Scrapy `UsageError`, the last two `KeyError`)."""
        if self._sites_dir_problem:
            raise SitesDirError(self._sites_dir_problem)
        if spider_name in self.config_errors:
            error = self.config_errors[spider_name]
            raise BrokenSiteError(f"site {spider_name!r} has an invalid config: {error}")
        self._warn()
        if spider_name in self._sites:
            return self._sites[spider_name]
        try:
            return self._modules.load(spider_name)
        except KeyError:
            raise UnknownSpiderError(
                f"no spider or site named {spider_name!r} (scrapy list shows them)"
            ) from None

    def list(self) -> list[str]:
        """The spiders that can run (sites with an invalid config are left out, with a
        warning)."""
        self._warn()
        return sorted([*self._sites, *self._modules.list()])

    def find_by_request(self, request: Request) -> builtins.list[str]:
        self._warn()
        sites = [name for name, cls in self._sites.items() if cls.handles_request(request)]
        return sites + self._modules.find_by_request(request)

    def _warn(self) -> None:
        """Log what was left out, once per loader, one line each.

        Not at construction: loading a broken site raises its error instead, which would
        otherwise be said twice."""
        if self._warned:
            return
        self._warned = True
        if self._sites_dir_problem:
            logger.warning("%s; only the bundled sites are loaded", self._sites_dir_problem)
        for name, error in self.config_errors.items():
            logger.warning("site %r skipped, its config is invalid: %s", name, error)
