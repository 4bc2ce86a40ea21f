"""Extraction-quality evaluation: the metrics, the datasets, the peers and the reports.

Behind ``newscrawl eval``; one job per module: `scoring` (the token metric of
``docs/scoring.md``), `snippets` (trafilatura's snippet metric), `datasets` (loading),
`peers` (adapters), `runner` (timed runs), `calibration` (confidence against page F1),
`regions` (wrong-region pages), `report` (tables, JSON) and `chart` (PNG).
"""
