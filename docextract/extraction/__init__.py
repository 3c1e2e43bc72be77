"""Extraction: tagged words -> entities -> one value per field, normalised, checked, with calibrated confidence.

Everything after the model: this package turns the model's tags into the entity JSON users get back.
"""
