"""The Redis side of a distributed run, read once from the settings.

One place names the keys a spider's run uses, so the scheduler settings, the worker
registry and the bench agree on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


@dataclass(frozen=True, slots=True)
class RunKeys:
    """The Redis keys of one spider's run under a key prefix."""

    requests: str
    """scrapy-redis's request queue (a sorted set of pickled requests)."""
    seen: str
    """scrapy-redis's seen-set: one fingerprint per request scheduled in this run."""
    workers: str
    """Sorted set: worker id -> time of its last heartbeat (Redis server clock)."""
    busy: str
    """Sorted set: worker id -> last heartbeat at which it had requests in flight."""

    @classmethod
    def of(cls, prefix: str, spider: str) -> RunKeys:
        pattern = key_patterns(prefix)
        return cls(**{name: value % {"spider": spider} for name, value in pattern.items()})


def key_patterns(prefix: str) -> dict[str, str]:
    """Key names with scrapy-redis's ``%(spider)s`` placeholder, by `RunKeys` field."""
    return {name: f"{prefix}:%(spider)s:{name}" for name in RunKeys.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class RedisConfig:
    """``NEWSCRAWL_REDIS_*`` settings."""

    url: str
    key_prefix: str
    idle_seconds: float
    worker_timeout: float

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> RedisConfig:
        return cls(
            url=settings.get("NEWSCRAWL_REDIS_URL") or "",
            key_prefix=settings.get("NEWSCRAWL_REDIS_KEY_PREFIX"),
            idle_seconds=settings.getfloat("NEWSCRAWL_REDIS_IDLE_SECONDS"),
            worker_timeout=settings.getfloat("NEWSCRAWL_REDIS_WORKER_TIMEOUT"),
        )

    @property
    def display_url(self) -> str:
        """The URL without its password, fit for logs and error messages."""
        return display_url(self.url)


def display_url(url: str) -> str:
    """`url` with any password replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
