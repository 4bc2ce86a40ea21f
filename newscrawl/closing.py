"""`Closing`: ``with`` support for any object that has a ``close()``.

The archive writer and index and the article stores all hold files or connections that a
``with`` block must release; one mixin instead of a copy of the same two methods in each.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Mixin: ``with obj:`` returns ``obj`` and calls ``obj.close()`` on the way out."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        _exc_type: type[BaseException] | None,
        _exc: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        self.close()
