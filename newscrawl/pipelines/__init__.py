"""Item pipelines, one module per concern (extract, then validation and storage)."""
