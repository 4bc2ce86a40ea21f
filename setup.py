"""The optional C extensions of `newscrawl.extract` (the line scan of `blocks` and the
text scans of the metadata), and the entry point of
``scrapyd-deploy``, which builds its egg with ``python setup.py bdist_egg``.

Everything else (metadata, package data, the ``scrapy`` entry point scrapyd reads) lives
in pyproject.toml; without this file scrapyd-deploy would write a template of its own here.
The extensions are optional: where they do not compile, the install only warns and the
pure-Python code runs. A scrapyd egg carries no extension: scrapyd imports eggs as zip
files, from which a compiled module cannot be loaded (setuptools' loader stub for one
fails with a TypeError), so the egg's spiders run the Python code.
"""

import sys

from setuptools import Extension, setup

BUILDING_EGG = "bdist_egg" in sys.argv

setup(
    ext_modules=[]
    if BUILDING_EGG
    else [
        Extension(
            f"newscrawl.extract.{name}",
            [f"newscrawl/extract/{name}.c"],
            depends=["newscrawl/extract/_line.h"],
            optional=True,
        )
        for name in ("_blockscan", "_textscan")
    ]
)
