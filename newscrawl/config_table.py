"""Typed reading of one TOML table, so a bad config names its file, key and problem.

A config is read through `Table` accessors that check each value's type as it is taken;
`Table.finish` then rejects the keys nobody asked for (typos such as ``allowed_domain``
would otherwise be ignored silently, news-please#51). The site configs
(`newscrawl.sites.config`) and the scheduled jobs (`newscrawl.schedule.jobs`) are read so,
each raising its own `ConfigError` subclass.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


class ConfigError(ValueError):
    """A config file that cannot be used; the message reads ``<file>: <key>: <problem>``."""

    def __init__(self, path: Path, key: str, problem: str) -> None:
        super().__init__(f"{path}: {key}: {problem}")
        self.path = path
        self.key = key
        self.problem = problem


class Table:
    """One TOML table of a config file, read key by key with type checks; a bad value
    raises `error` (the kind of config: `SiteConfigError`, `JobConfigError`)."""

    def __init__(
        self, data: dict[str, Any], path: Path, error: type[ConfigError], prefix: str = ""
    ) -> None:
        self._data = data
        self._path = path
        self._error = error
        self._prefix = prefix
        self._read: set[str] = set()

    def key_name(self, key: str) -> str:
        """The dotted name of `key` as the user wrote it (``urls.article``)."""
        return f"{self._prefix}{key}"

    def error(self, key: str, problem: str) -> ConfigError:
        return self._error(self._path, self.key_name(key), problem)

    def get(self, key: str, kind: type[T], default: T) -> T:
        """The value of `key` checked to be `kind` (ints pass as floats), or `default`."""
        self._read.add(key)
        if key not in self._data:
            return default
        return self._check(key, self._data[key], kind)

    def optional(self, key: str, kind: type[T]) -> T | None:
        """The value of `key` checked to be `kind`, or None when absent."""
        self._read.add(key)
        return self._check(key, self._data[key], kind) if key in self._data else None

    def require(self, key: str, kind: type[T]) -> T:
        self._read.add(key)
        if key not in self._data:
            raise self.error(key, f"required key is missing (expected {_TYPE_NAMES[kind]})")
        return self._check(key, self._data[key], kind)

    def str_list(self, key: str) -> list[str]:
        """A list of strings (empty when absent)."""
        self._read.add(key)
        value = self._data.get(key, [])
        if not isinstance(value, list):
            raise self.error(key, f"expected a list of strings, got {_describe(value)}")
        for index, item in enumerate(value):
            if not isinstance(item, str):
                problem = f"expected a string, got {_describe(item)}"
                raise self.error(f"{key}[{index}]", problem)
        return value

    def str_table(self, key: str) -> dict[str, str]:
        """A table whose values are all strings (empty when absent)."""
        table = self.table(key)
        values = {name: table.require(name, str) for name in table.names()}
        table.finish()
        return values

    def table(self, key: str) -> Table:
        """A sub-table (an empty one when absent)."""
        self._read.add(key)
        value = self._data.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {_describe(value)}")
        return Table(value, self._path, self._error, f"{self.key_name(key)}.")

    def tables(self, key: str) -> list[Table]:
        """An array of tables (``[[key]]``), empty when absent."""
        self._read.add(key)
        value = self._data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            problem = f"expected an array of tables ([[{key}]]), got {_describe(value)}"
            raise self.error(key, problem)
        return [
            Table(item, self._path, self._error, f"{self.key_name(key)}[{index}].")
            for index, item in enumerate(value)
        ]

    def names(self) -> list[str]:
        return list(self._data)

    def finish(self) -> None:
        """Reject keys that were never read: they are typos or options that do not exist."""
        unknown = [key for key in self._data if key not in self._read]
        if unknown:
            known = ", ".join(sorted(self._read)) or "none"
            raise self.error(unknown[0], f"unknown key (known keys here: {known})")

    def _check(self, key: str, value: Any, kind: type[T]) -> T:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)  # type: ignore[return-value]
        if isinstance(value, kind) and not (kind is not bool and isinstance(value, bool)):
            return value
        raise self.error(key, f"expected {_TYPE_NAMES[kind]}, got {_describe(value)}")


def _describe(value: Any) -> str:
    """A value's TOML type and a short repr, for error messages."""
    names = {bool: "boolean", int: "integer", float: "float", str: "string", list: "array"}
    kind = "table" if isinstance(value, dict) else names.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text[:60]}{'…' if len(text) > 60 else ''}"
