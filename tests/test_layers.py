"""The package's layers: the crawl's Scrapy components (spiders, downloader middlewares,
item pipelines, the archive) never import one another, only `newscrawl.crawl_contract`
and the layers below; the extractor never imports Scrapy.

Read from the source with `ast`, so a test fails on the import itself, wherever it is in
a module (a function-level import counts too).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "newscrawl"
COMPONENTS = ("spiders", "middlewares", "pipelines", "archive")


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def test_no_scrapy_component_imports_a_sibling_component() -> None:
    crossing = []
    for component in COMPONENTS:
        siblings = [f"newscrawl.{other}" for other in COMPONENTS if other != component]
        for path in sorted((PACKAGE / component).rglob("*.py")):
            for module in imported_modules(path):
                if any(module == s or module.startswith(s + ".") for s in siblings):
                    crossing.append(f"{path.relative_to(PACKAGE.parent)} imports {module}")
    assert crossing == []


def test_the_extractor_does_not_import_scrapy() -> None:
    scrapy_users = [
        f"{path.relative_to(PACKAGE.parent)} imports {module}"
        for path in sorted((PACKAGE / "extract").rglob("*.py"))
        for module in imported_modules(path)
        if module == "scrapy" or module.startswith(("scrapy.", "newscrawl.crawl_contract"))
    ]
    assert scrapy_users == []
