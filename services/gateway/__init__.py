"""HTTP: the Starlette app (``app.py``), the bare ASGI endpoints of the hot paths
(``command_endpoint.py``, ``stream_endpoint.py`` on ``asgi.py``), the one path of a command for POST
and WebSocket (``command_path.py``) and the map of the service layer's outcomes to answers
(``answers.py``), the hub of open streams (``hub.py``) and their one loop (``streams.py``) framed as
SSE (``sse.py``) or WebSocket (``ws_endpoint.py``), access checks (``access.py``), the API's
message Structs (``schemas.py``), the OpenAPI document, the coalescing HTTP protocol, and
``web/``, the reference client's static files. An entrypoint: may import the runtime and every
layer below it."""
