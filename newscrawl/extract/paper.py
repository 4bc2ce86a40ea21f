"""The paper's extraction rules, exactly as published (docs/method.md, section 2).

1. Groups: a group starts at a line of length >= L and ends at the next empty line.
2. Gap cut: at the first distance between consecutive groups larger than D, every group
   below it is dropped.
3. Tail clean-up: in the last kept group, lines ("sentences") without a full stop go.

L is `Options.min_line_length` (80), or `Options.fallback_line_length` (60) when no line of
the page reaches it; D is `Options.max_gap` (10). The distance between two groups is the
difference of the line numbers of the next group's first line and the previous group's
last line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from newscrawl.extract.model import DecisionTable, LineDecision, Options


@dataclass(frozen=True, slots=True)
class Group:
    first: int
    """0-based index of the group's first line."""
    last: int
    """0-based index of the group's last (non-empty) line."""


@dataclass(frozen=True, slots=True)
class Selection:
    kept: tuple[LineDecision, ...]
    lines: DecisionTable
    line_length: int
    reason: str | None


def choose_line_length(lengths: list[int], options: Options) -> int:
    """L: the configured threshold, or the fallback when the longest line is shorter."""
    longest = max(lengths, default=0)
    return (
        options.min_line_length
        if longest >= options.min_line_length
        else options.fallback_line_length
    )


def find_groups(lengths: list[int], line_length: int) -> list[Group]:
    """Rule 1: a group runs from a line of length >= L up to the next empty line."""
    threshold = max(1, line_length)
    groups: list[Group] = []
    index = 0
    while index < len(lengths):
        if lengths[index] < threshold:
            index += 1
            continue
        end = index
        while end + 1 < len(lengths) and lengths[end + 1] > 0:
            end += 1
        groups.append(Group(index, end))
        index = end + 2
    return groups


def cut_at_first_gap(groups: list[Group], max_gap: int) -> int:
    """Rule 2: how many groups survive the cut at the first gap larger than D."""
    for position in range(1, len(groups)):
        if groups[position].first - groups[position - 1].last > max_gap:
            return position
    return len(groups)


def select(texts: list[str], options: Options) -> Selection:
    """Apply the three rules to preprocessed lines; every line's decision is in the
    (lazily built) `Selection.lines`."""
    lengths = [len(text) for text in texts]
    line_length = choose_line_length(lengths, options)
    groups = find_groups(lengths, line_length)
    survivors = cut_at_first_gap(groups, options.max_gap)
    decider = _Decider(texts, groups, survivors, line_length, options)
    candidates = _candidates(texts, groups[:survivors], decider)
    kept = tuple(decision for decision in map(decider, candidates) if decision.kept)
    table = DecisionTable(len(texts), decider, kept)
    return Selection(table.kept, table, line_length, _empty_reason(table.kept, groups, line_length))


def _candidates(texts: list[str], kept_groups: list[Group], decider: _Decider) -> Iterator[int]:
    """The lines the rules may keep: those of the groups above the gap cut, in the last of
    them only those with a full stop (rule 3). A broken page can have tens of thousands of
    lines in that last group, and a decision is dear to build only to be dropped."""
    for number, span in enumerate(kept_groups, start=1):
        lines = range(span.first, span.last + 1)
        if number < len(kept_groups):
            yield from lines
        else:
            yield from (index for index in lines if decider.has_full_stop(texts[index]))


class _Decider:
    """Builds one line's `LineDecision`: its group, features and the rule deciding it."""

    def __init__(
        self,
        texts: list[str],
        groups: list[Group],
        survivors: int,
        line_length: int,
        options: Options,
    ) -> None:
        self.texts, self.groups, self.survivors = texts, groups, survivors
        self.line_length, self.max_gap = line_length, options.max_gap
        self.firsts = [span.first for span in groups]
        self.full_stop = (
            re.compile(f"[{re.escape(options.full_stops)}]") if options.full_stops else None
        )
        self.outside = (False, "outside groups" if groups else f"no line reaches L={line_length}")

    def has_full_stop(self, text: str) -> bool:
        return self.full_stop is not None and self.full_stop.search(text) is not None

    def __call__(self, index: int) -> LineDecision:
        text = self.texts[index]
        has_full_stop = self.has_full_stop(text)
        group: int | None = bisect.bisect_right(self.firsts, index)
        if not group or index > self.groups[group - 1].last:
            group = None
        kept, rule = (
            self.outside
            if group is None
            else _decide(
                index,
                group,
                self.groups,
                self.survivors,
                has_full_stop,
                self.line_length,
                self.max_gap,
            )
        )
        features: dict[str, int | float | bool] = {"length": len(text), "full_stop": has_full_stop}
        return LineDecision(index + 1, text, features, group, kept, rule)


def _decide(
    index: int,
    group: int,
    groups: list[Group],
    survivors: int,
    has_full_stop: bool,
    line_length: int,
    max_gap: int,
) -> tuple[bool, str]:
    """The rule deciding a line of group number `group` (1-based)."""
    if group > survivors:
        previous, cut = groups[survivors - 1], groups[survivors]
        return (
            False,
            f"cut: gap {cut.first - previous.last} > D={max_gap} above group {survivors + 1}",
        )
    if group == survivors and not has_full_stop:
        return False, "tail: no full stop in last group"
    if index == groups[group - 1].first:
        return True, f"group start: length >= L={line_length}"
    return True, "in group"


def _empty_reason(
    kept: tuple[LineDecision, ...], groups: list[Group], line_length: int
) -> str | None:
    if kept:
        return None
    if not groups:
        return f"no text line reaches L={line_length} characters"
    return "every kept line was removed by the tail rule (no full stop)"
