"""The optional C extension of `newscrawl.extract.blocks`, and the entry point of
``scrapyd-deploy``, which builds its egg with ``python setup.py bdist_egg``.

Everything else (metadata, package data, the ``scrapy`` entry point scrapyd reads) lives
in pyproject.toml; without this file scrapyd-deploy would write a template of its own here.
The extension is optional: where it does not compile, the install only warns and
`blocks.page_lines` runs its pure-Python loop.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "newscrawl.extract._blockscan",
            ["newscrawl/extract/_blockscan.c"],
            optional=True,
        )
    ]
)
