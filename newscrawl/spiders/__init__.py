"""Spiders: one config-driven class serves every site in configs/sites/."""
