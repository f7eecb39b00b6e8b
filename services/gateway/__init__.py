"""HTTP: the Starlette app (``app.py``), the bare ASGI endpoints of the hot paths
(``command_endpoint.py``, ``stream_endpoint.py`` on ``asgi.py``), the SSE hub (``sse.py``), access
checks (``access.py``), the OpenAPI document, the coalescing HTTP protocol, and ``web/``, the
reference client's static files. An entrypoint: may import the runtime and every layer below it."""
