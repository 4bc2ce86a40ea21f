"""Extraction-quality evaluation: the metric, the datasets, the peers and the reports.

Behind ``newscrawl eval``; one job per module: `scoring` (the metric of
``docs/scoring.md``), `datasets` (loading), `peers` (adapters), `runner` (timed runs),
`report` (tables, JSON) and `chart` (PNG).
"""
