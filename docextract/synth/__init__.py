"""Synthetic labelled invoices: content sampler, layout families, labels by construction, scan-like images.

See docs/synth.md. Entry points: ``generate.generate_invoice``, ``labelling.label_words_by_regions``,
``labels.INVOICE_LABELS``, ``layouts.FAMILY_NAMES``; the command is ``docextract synth``.
"""
