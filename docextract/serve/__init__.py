"""`docextract serve`: the extraction of `docextract run` as an HTTP service (FastAPI on uvicorn).

``app`` builds the ASGI application (routes, upload limits, error answers); ``dispatch`` runs each request's
file in the batch engine's isolated workers (:mod:`docextract.batch.isolation`: a hard timeout, a memory cap,
a crashed worker replaced), each of which loads the model once (``worker``). FastAPI and uvicorn are the
optional extra ``docextract[serve]``.
"""
