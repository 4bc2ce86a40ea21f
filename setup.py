"""The optional C extension of `newscrawl.extract` (the per-tag loop of the line scan,
`blocks`), and the entry point of ``scrapyd-deploy``, which builds its egg with
``python setup.py bdist_egg``.

Everything else (metadata, package data, the ``scrapy`` entry point scrapyd reads) lives
in pyproject.toml; without this file scrapyd-deploy would write a template of its own here.
The extension is optional: where it does not compile, the install only warns, and at
import `newscrawl.extract.native` says once that the pure-Python loop runs (about 3.6
times slower; wheels built by cibuildwheel, pyproject.toml, carry it compiled). A scrapyd
egg carries no extension: scrapyd imports eggs as zip files, from which a compiled module
cannot be loaded (setuptools' loader stub for one fails with a TypeError), so the egg's
spiders run the Python code.
"""

import sys

from setuptools import Extension, setup

BUILDING_EGG = "bdist_egg" in sys.argv

setup(
    ext_modules=[]
    if BUILDING_EGG
    else [
        Extension(
            "newscrawl.extract._blockscan", ["newscrawl/extract/_blockscan.c"], optional=True
        )
    ]
)
