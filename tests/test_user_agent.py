"""The crawler says who it is: ``newscrawl/<version> (+<contact>)`` by default, another agent
where a site's config asks for one, and robots.txt read for the ``newscrawl`` token always.

Real ``scrapy crawl`` runs against a site on 127.0.0.1 that records each request's agent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from local_server import LocalServer, QuietHandler, send_page
from test_site_crawl import SITE, UTF8, article, scrapy_crawl

from newscrawl.identity import release, user_agent

ROBOTS = b"User-agent: newscrawl\nDisallow: /a/2.html\n\nUser-agent: *\nDisallow:\n"
"""Rules for newscrawl alone: it must not fetch /a/2.html, whatever agent it sends."""
INDEX = b'<html><body><a href="/a/1.html">one</a> <a href="/a/2.html">two</a></body></html>'
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36"


class RecordingSite(LocalServer):
    """The index, two articles and robots.txt; `agents` maps each path to the agents sent."""

    def __init__(self) -> None:
        self.agents: dict[str, list[str]] = {}
        lock = threading.Lock()
        site = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                with lock:
                    site.agents.setdefault(self.path, []).append(self.headers["User-Agent"])
                if self.path == "/robots.txt":
                    send_page(self, 200, [("Content-Type", "text/plain")], ROBOTS)
                elif self.path == "/index.html":
                    send_page(self, 200, list(UTF8), INDEX)
                elif self.path in ("/a/1.html", "/a/2.html"):
                    send_page(self, 200, list(UTF8), article("标题", "utf-8"))
                else:
                    send_page(self, 404, [], b"")

        super().__init__(Handler)


@pytest.fixture(name="site")
def site_fixture() -> Iterator[RecordingSite]:
    with RecordingSite() as site:
        yield site


def crawl(site: RecordingSite, tmp_path: Path, extra_config: str = "", *args: str) -> None:
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    config = extra_config + SITE.format(base_url=site.url)
    (sites_dir / "local.toml").write_text(config, encoding="utf-8")
    scrapy_crawl(tmp_path, sites_dir, *args)


def test_the_default_agent_names_newscrawl_and_its_release(
    site: RecordingSite, tmp_path: Path
) -> None:
    crawl(site, tmp_path)
    expected = f"newscrawl/{release() or 'dev'}"
    assert {agent for agents in site.agents.values() for agent in agents} == {expected}
    assert "/a/1.html" in site.agents and "/a/2.html" not in site.agents


def test_the_contact_setting_is_in_the_agent(site: RecordingSite, tmp_path: Path) -> None:
    crawl(site, tmp_path, "", "-s", "NEWSCRAWL_CONTACT=https://corpus.example.org/bot")
    expected = f"newscrawl/{release() or 'dev'} (+https://corpus.example.org/bot)"
    assert site.agents["/a/1.html"] == [expected]
    assert site.agents["/robots.txt"] == [expected]


def test_a_site_config_can_ask_for_another_agent_and_robots_txt_still_binds(
    site: RecordingSite, tmp_path: Path
) -> None:
    crawl(site, tmp_path, f'user_agent = "{BROWSER}"\n')
    assert site.agents["/a/1.html"] == [BROWSER]
    assert "/a/2.html" not in site.agents  # disallowed for the newscrawl token


def test_user_agent_text() -> None:
    version = release() or "dev"
    assert user_agent() == f"newscrawl/{version}"
    assert user_agent("  ops@example.org\n") == f"newscrawl/{version} (+ops@example.org)"
