"""Who newscrawl is: its release and the User-Agent its crawls send.

A corpus crawler that runs for months identifies itself, so that a site's operators can
tell its requests apart, write robots.txt rules for it and reach whoever runs it:
``newscrawl/<release> (+<contact>)``, the contact from the ``NEWSCRAWL_CONTACT`` setting (a
URL or an e-mail address of the person or project running the crawl). robots.txt rules are
matched against the product token `ROBOTS_TOKEN` whatever User-Agent a site is sent.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

ROBOTS_TOKEN = "newscrawl"
"""The product token of the User-Agent, the name robots.txt groups address the crawler by."""


@cache
def release() -> str | None:
    """newscrawl's installed version, None in a source tree that was never installed."""
    try:
        return version("newscrawl")
    except PackageNotFoundError:
        return None


def user_agent(contact: str = "") -> str:
    """``newscrawl/<release> (+<contact>)``; without a contact ``newscrawl/<release>``."""
    product = f"{ROBOTS_TOKEN}/{release() or 'dev'}"
    contact = " ".join(contact.split())
    return f"{product} (+{contact})" if contact else product
