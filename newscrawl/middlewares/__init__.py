"""Downloader middlewares of the project, one module per concern."""
