"""Load the evaluation datasets of `shared/datasets/` into one record type.

Four layouts, told apart by what the folder holds rather than by its name, so a user's own
folder laid out like one of them works too:

* zh_cwce: ``original/<id>.html`` with the gold body in ``cleaned/<id>.txt``;
* scrapinghub: ``html/<id>.html.gz`` with ``ground-truth.json`` ``{id: {"articleBody"}}``;
* sites: ``pages/<site>/article-N.html[.gz]`` with ``gold/<site>-article-N.json`` ``body``
  (listing pages have link gold only and are not scored for body);
* trafilatura_dev, readability and dragnet_dev: ``html/<id>.html.gz`` with ``gold.json``,
  whose entries hold either "with"/"without" snippets (scored by `snippets`) or a "body"
  (token F1). An entry with ``"scored_text": "title+body"`` has a gold copied from the
  rendered page headline first, so the extractor's title, a newline and its body are scored.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from newscrawl.evaluation.snippets import Snippets

NAMED_DATASETS = (
    "zh_cwce",
    "sites",
    "scrapinghub",
    "trafilatura_dev",
    "readability",
    "dragnet_dev",
)
"""The datasets of `shared/datasets/`, callable by name."""

PROJECT_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Page:
    """One scored page: the HTML exactly as saved (bytes: decoding is part of the test)."""

    id: str
    html: bytes
    gold: str | Snippets
    """The gold body, or the snippets its output must and must not hold."""
    url: str | None = None
    site: str | None = None
    """The site (folder name) for datasets split by site, else None."""
    title_first: bool = False
    """Whether the gold starts with the headline: the title is scored with the body."""


@dataclass(frozen=True, slots=True)
class Dataset:
    name: str
    path: Path
    pages: tuple[Page, ...]

    @property
    def sites(self) -> tuple[str, ...]:
        """The sites in page order; empty when the dataset is not split by site."""
        return tuple(dict.fromkeys(page.site for page in self.pages if page.site))

    @property
    def snippet_gold(self) -> bool:
        """Whether the gold is snippets, so the dataset is scored by the snippet metric."""
        return any(isinstance(page.gold, Snippets) for page in self.pages)


def find_shared_dir(explicit: Path | None = None) -> Path:
    """`explicit`, else ``../shared`` from the working directory, then from the project root."""
    if explicit is not None:
        candidates = [explicit]
    else:
        candidates = [Path.cwd().parent / "shared", PROJECT_ROOT.parent / "shared"]
    for candidate in candidates:
        if (candidate / "datasets").is_dir():
            return candidate
    tried = ", ".join(str(candidate) for candidate in candidates)
    raise FileNotFoundError(f"no shared folder with datasets/ found (tried {tried})")


def load_dataset(
    name_or_path: str, shared_dir: Path | None = None, limit: int | None = None
) -> Dataset:
    """Load a named dataset (from `find_shared_dir`), or any folder in one of the layouts."""
    if name_or_path in NAMED_DATASETS:
        path = find_shared_dir(shared_dir) / "datasets" / name_or_path
    else:
        path = Path(name_or_path)
    if (path / "ground-truth.json").is_file():
        records = _scrapinghub_pages(path)
    elif (path / "pages").is_dir() and (path / "gold").is_dir():
        records = _sites_pages(path)
    elif (path / "gold.json").is_file() and (path / "html").is_dir():
        records = _gold_json_pages(path)
    elif (path / "original").is_dir() and (path / "cleaned").is_dir():
        records = _cwce_pages(path)
    else:
        raise FileNotFoundError(
            f"{path} is not a dataset: expected original/ + cleaned/, pages/ + gold/, "
            "html/ + ground-truth.json or html/ + gold.json"
        )
    return Dataset(name=path.resolve().name, path=path, pages=tuple(islice(records, limit)))


def _read_html(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _cwce_pages(root: Path) -> Iterator[Page]:
    for html_path in sorted((root / "original").glob("*.html")):
        gold_path = root / "cleaned" / f"{html_path.stem}.txt"
        if gold_path.is_file():
            yield Page(
                id=html_path.stem,
                html=_read_html(html_path),
                gold=gold_path.read_text("utf-8"),
            )


def _scrapinghub_pages(root: Path) -> Iterator[Page]:
    truth = json.loads((root / "ground-truth.json").read_text("utf-8"))
    for page_id in sorted(truth):
        yield Page(
            id=page_id,
            html=_read_html(root / "html" / f"{page_id}.html.gz"),
            gold=truth[page_id].get("articleBody") or "",
            url=truth[page_id].get("url"),
        )


def _gold_json_pages(root: Path) -> Iterator[Page]:
    """trafilatura_dev's snippet gold, readability's and dragnet_dev's body gold share this
    layout."""
    gold = json.loads((root / "gold.json").read_text("utf-8"))
    for page_id in sorted(gold):
        entry = gold[page_id]
        yield Page(
            id=page_id,
            html=_read_html(root / "html" / f"{page_id}.html.gz"),
            gold=(
                Snippets(tuple(entry["with"]), tuple(entry.get("without", ())))
                if "with" in entry
                else entry.get("body") or ""
            ),
            url=entry.get("url"),
            title_first=entry.get("scored_text") == "title+body",
        )


def _sites_pages(root: Path) -> Iterator[Page]:
    for site_dir in sorted(path for path in (root / "pages").iterdir() if path.is_dir()):
        for html_path in sorted(site_dir.glob("article-*.html*"), key=_page_number):
            stem = html_path.name.split(".", 1)[0]
            gold_path = root / "gold" / f"{site_dir.name}-{stem}.json"
            if not gold_path.is_file():
                continue
            gold = json.loads(gold_path.read_text("utf-8"))
            yield Page(
                id=f"{site_dir.name}/{stem}",
                html=_read_html(html_path),
                gold=gold.get("body") or "",
                url=gold.get("url"),
                site=site_dir.name,
            )


def _page_number(path: Path) -> tuple[int, str]:
    """Sort key putting article-2 before article-10."""
    stem = path.name.split(".", 1)[0]
    number = stem.rsplit("-", 1)[-1]
    return (int(number) if number.isdigit() else 0, stem)
