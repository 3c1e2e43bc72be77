"""Labelled documents: the JSONL format, converters from public data sets, validation, tagging and augmentation.

* :mod:`~docextract.data.labelled` - :class:`LabelledDocument` and the JSONL reader/writer (docs/labelled-format.md)
* :mod:`~docextract.data.funsd`, :mod:`~docextract.data.sroie`, :mod:`~docextract.data.kleister` - converters
* :mod:`~docextract.data.validate` - defects named by file, record and field, before any training
* :mod:`~docextract.data.tagging` - BIO/BIESO tags, spans, and sub-word encoding of a model window
* :mod:`~docextract.data.augment` - the LSPE paper's block shuffling / swapping and the no-1D-position option
"""
