"""``newscrawl extract --explain`` as text: the header and the line table, fitted to a terminal.

Kept apart from the command so reading inputs and running batches (`extract`) and laying
out a table for a human (here) can change independently. Widths count terminal columns,
not characters: CJK wide and fullwidth characters take two.
"""

from __future__ import annotations

import shutil
import textwrap
import unicodedata
from collections.abc import Iterable, Sequence

from newscrawl.extract import Article, LineDecision, Options

MIN_TEXT_COLUMN = 20
"""The explain table never squeezes the line text below this many columns."""


def render_explain(article: Article, options: Options, width: int) -> str:
    """The parameters used and the line table, fitted to `width` terminal columns."""
    rows = [*_explain_header(article, options, width), "", *_line_table(article.lines, width)]
    return "\n".join(rows) + "\n"


def terminal_width() -> int:
    """Columns of the terminal (``COLUMNS`` wins), 120 when there is none."""
    return shutil.get_terminal_size(fallback=(120, 24)).columns


def _explain_header(article: Article, options: Options, width: int) -> list[str]:
    """What the method used next to what was configured, and the outcome.

    The parameters are the article's own, so each method shows its own (the paper's L
    after the fallback and D; the default method's scoring parameters, wrapped to `width`).
    """
    used = ", ".join(f"{name}={value}" for name, value in article.parameters.items())
    header = [
        f"method: {article.method}  encoding: {article.encoding or '-'}",
        *textwrap.wrap(
            used,
            width,
            initial_indent="parameters used: ",
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        ),
    ]
    if article.method == "paper":
        header.append(
            f"configured: L={options.min_line_length} (fallback L={options.fallback_line_length} "
            f"when no line reaches it), D={options.max_gap}"
        )
    groups = {line.group for line in article.lines if line.group is not None}
    kept_groups = {line.group for line in article.lines if line.kept and line.group is not None}
    kept = sum(line.kept for line in article.lines)
    header.append(
        f"kept {kept} of {len(article.lines)} lines, {len(kept_groups)} of {len(groups)} groups"
    )
    if article.fallback:
        header.append(f"body from: {article.fallback} (not from the kept lines)")
    if article.reason:
        header.append(f"empty because: {article.reason}")
    if article.confidence is not None:
        why = "; ".join(article.confidence_reasons) or "nothing lowered it"
        header.append(f"confidence: {article.confidence:.2f} ({why})")
    return header + _metadata_lines(article)


def _metadata_lines(article: Article) -> list[str]:
    """Each metadata value with where it came from, and the author candidates refused."""
    meta = article.metadata
    values = {
        "published": meta.published.isoformat() if meta.published else None,
        "author": meta.author,
        "source": meta.source,
        "editor": meta.editor,
        "lang": meta.lang,
    }
    lines = [
        f"{name}: {value} (from {meta.evidence.get(name, '?')})"
        for name, value in values.items()
        if value
    ]
    if meta.author is None:
        lines.append(
            "author: none" + (" (every candidate refused)" if meta.refused_authors else "")
        )
    lines.extend(f"  refused author {refusal}" for refusal in meta.refused_authors)
    return lines


def _line_table(lines: Sequence[LineDecision], width: int) -> list[str]:
    """One row per line (runs of empty lines folded into one), text clipped to fit."""
    feature_names = _feature_names(lines)
    headers = ["line", *feature_names, "group", "decision", "rule"]
    chunks = _fold_empty_runs(lines)
    rows = [_row(chunk, feature_names) for chunk in chunks]
    widths = [max(_width(cell) for cell in column) for column in zip(headers, *rows, strict=False)]
    numeric = {0, *range(1, 1 + len(feature_names)), len(feature_names) + 1}
    fixed = sum(widths) + 2 * len(widths)
    text_width = max(MIN_TEXT_COLUMN, width - fixed)

    def format_row(cells: Sequence[str], text: str) -> str:
        padded = [
            _pad(cell, column_width, right=index in numeric)
            for index, (cell, column_width) in enumerate(zip(cells, widths, strict=True))
        ]
        return ("  ".join(padded) + "  " + _clip(text, text_width)).rstrip()

    table = [format_row(headers, "text")]
    for chunk, cells in zip(chunks, rows, strict=True):
        table.append(format_row(cells, _chunk_text(chunk)))
    return table


def _feature_names(lines: Iterable[LineDecision]) -> list[str]:
    """Feature keys in first-seen order, so any method's features get a column."""
    names: dict[str, None] = {}
    for line in lines:
        names.update(dict.fromkeys(line.features))
    return list(names)


def _fold_empty_runs(lines: Sequence[LineDecision]) -> list[list[LineDecision]]:
    """Consecutive dropped empty lines decided by the same rule become one chunk."""
    chunks: list[list[LineDecision]] = []
    for line in lines:
        previous = chunks[-1][-1] if chunks else None
        if (
            previous is not None
            and _is_foldable(line)
            and _is_foldable(previous)
            and previous.rule == line.rule
        ):
            chunks[-1].append(line)
        else:
            chunks.append([line])
    return chunks


def _is_foldable(line: LineDecision) -> bool:
    return not line.text and not line.kept


def _row(chunk: Sequence[LineDecision], feature_names: Sequence[str]) -> list[str]:
    first, last = chunk[0], chunk[-1]
    number = str(first.number) if len(chunk) == 1 else f"{first.number}-{last.number}"
    features = [_feature_cell(first.features.get(name)) for name in feature_names]
    group = "-" if first.group is None else str(first.group)
    return [number, *features, group, "kept" if first.kept else "dropped", first.rule]


def _chunk_text(chunk: Sequence[LineDecision]) -> str:
    return f"({len(chunk)} empty lines)" if len(chunk) > 1 else _printable(chunk[0].text)


def _feature_cell(value: int | float | bool | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _printable(text: str) -> str:
    """Page text with control characters replaced, so a page cannot drive the terminal."""
    return "".join(char if char.isprintable() else "\ufffd" for char in text)


def _char_width(char: str) -> int:
    """Terminal columns of one character: CJK wide/fullwidth take two."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _width(text: str) -> int:
    return sum(_char_width(char) for char in text)


def _pad(text: str, width: int, *, right: bool) -> str:
    padding = " " * max(0, width - _width(text))
    return padding + text if right else text + padding


def _clip(text: str, width: int, marker: str = "...") -> str:
    """`text` cut to `width` terminal columns, with `marker` when something was cut."""
    if _width(text) <= width:
        return text
    room = width - len(marker)
    kept: list[str] = []
    used = 0
    for char in text:
        used += _char_width(char)
        if used > room:
            break
        kept.append(char)
    return "".join(kept) + marker
