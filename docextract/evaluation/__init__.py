"""Measurement: how right a model and its fields are on labelled documents, and what its confidences mean.

``evaluate`` (entity and field scores, robustness), ``field_rules`` (when a field is right: the one module that says
so), ``field_judgements`` (fields judged as `run` prints them), ``extraction_eval`` (`run`'s output against true
values), ``risk_coverage`` and ``calibration`` / ``confidence_fit`` (temperature, field confidence, review policy),
``plots`` (the ``--plot`` PNG). Beside the pipeline, never on its path; training reads it to pick its epochs.
"""
