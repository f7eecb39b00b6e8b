"""The event store and everything that talks Redis for it: the per-match keys (``keys.py``), the
store itself (``event_store.py``, with ``append.lua``, ``dirty.lua`` and ``promote.lua`` beside it),
the pipelined connection (``wire.py``) and its RESP packing (``resp.py``), and append batching.
May import ``ops`` only."""
