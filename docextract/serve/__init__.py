"""`docextract serve`: the extraction of `docextract run` as an HTTP service (FastAPI on uvicorn).

``app`` builds the ASGI application (routes, upload limits, error answers); ``auth`` decides who may call it (a
bearer token; no address beyond loopback without one) and ``request_log`` writes one line per request; ``service``
wraps the application in both as the server listens. ``dispatch`` runs each request's file in the batch engine's
isolated workers (:mod:`docextract.batch.isolation`: a hard timeout, a memory cap, a crashed worker replaced), each
of which loads the model once (``worker``). FastAPI and uvicorn are the optional extra ``docextract[serve]``.
"""
