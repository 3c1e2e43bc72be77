"""docextract: business documents to structured entity JSON with layout-aware transformers.

From Python (docs/python-api.md)::

    from docextract import Extractor

    extractor = Extractor("invoice")                 # loads the model once
    result = extractor.extract("invoice.pdf")        # a path, bytes or a binary file object
    result.to_dict()                                 # what `docextract run invoice.pdf` prints

The names in ``__all__`` are the public API, kept stable; the modules under ``docextract.`` are the internals.
Importing the package loads no model library (torch loads when an Extractor is made).
"""

__version__ = "0.1.0"

from docextract.errors import (  # noqa: E402  (after __version__, which every module may read)
    ERROR_CODES,
    DocextractError,
    InputError,
    MissingDependencyError,
    ModelRefusedError,
    UsageError,
)
from docextract.extractor import ExtractionResult, Extractor  # noqa: E402

__all__ = [
    "ERROR_CODES",
    "DocextractError",
    "ExtractionResult",
    "Extractor",
    "InputError",
    "MissingDependencyError",
    "ModelRefusedError",
    "UsageError",
    "__version__",
]
