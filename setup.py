"""Only for ``scrapyd-deploy``, which builds its egg with ``python setup.py bdist_egg``.

Everything (metadata, package data, the ``scrapy`` entry point scrapyd reads) lives in
pyproject.toml; without this file scrapyd-deploy would write a template of its own here.
"""

from setuptools import setup

setup()
