"""Page kinds: what the recorder notes of each response, and which ones are article pages.

A crawl records why it fetched each page (`PageKind`, written by
`newscrawl.archive.middleware`). ``newscrawl reextract`` extracts only article pages, as the
crawl did, so a listing page is never stored as an article: `ArticleSites` tells them apart
by the recorded kind and site, or by the site configs' URL patterns for an archive older
than those fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from newscrawl.archive.model import ArchivedResponse
from newscrawl.sites import SiteConfig

NO_SITE = "no site config"
OFF_PATTERN = "not an article URL"


class PageKind(StrEnum):
    """Why the crawl fetched a page: the kind of request the spider made for it."""

    ARTICLE = "article"
    LISTING = "listing"
    FEED = "feed"
    SITEMAP = "sitemap"
    API = "api"
    OTHER = "other"
    """robots.txt, a ``-a start_urls`` page whose kind is sniffed later, other spiders."""


class ArticleSites:
    """Site configs by name, deciding which archived responses are article pages."""

    def __init__(self, sites: Iterable[SiteConfig]) -> None:
        self._by_name = {site.name: site for site in sites}
        self._in_order = sorted(self._by_name.values(), key=lambda site: site.name)

    def site_of(self, response: ArchivedResponse) -> SiteConfig | str:
        """The site whose article page `response` is, or why it is none (a skip reason).

        A recorded kind other than article is final. A recorded article names its site,
        whose patterns must still call the URL an article, as the spider checks each article
        page it receives (a redirect may lead off them). Without a recorded kind, the first
        site by name whose ``allowed_domains`` cover the URL and whose patterns call it an
        article claims it.
        """
        if response.page_kind is not None and response.page_kind != PageKind.ARTICLE:
            return f"page kind {response.page_kind}"
        if response.page_kind is not None and response.site is not None:
            site = self._by_name.get(response.site)
            if site is None:
                return f"{NO_SITE} {response.site!r}"
            return site if site.is_article(site.clean_url(response.url)) else OFF_PATTERN
        covering = [site for site in self._in_order if site.is_allowed(response.url)]
        if not covering:
            return NO_SITE
        for site in covering:
            if site.is_article(site.clean_url(response.url)):
                return site
        return OFF_PATTERN
