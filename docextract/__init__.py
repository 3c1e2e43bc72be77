"""docextract: business documents to structured entity JSON with layout-aware transformers."""

__version__ = "0.1.0"
