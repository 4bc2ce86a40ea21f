"""Spiders: one config-driven class serves every site in newscrawl/configs/sites/."""
