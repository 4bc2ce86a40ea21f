"""The project's own Scrapy commands (``COMMANDS_MODULE``): they replace Scrapy's of the same
name for ``scrapy <command>`` run in this project (Scrapy's documented way to add or
override commands)."""
