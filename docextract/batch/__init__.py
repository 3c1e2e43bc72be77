"""The batch engine: a folder of inputs through isolated workers, with a manifest, atomic outputs and resume.

It runs any ``module:function`` per file (the product's is ``docextract.pipeline:extract_file``).
"""
