"""The ``tavern`` command (``main.py``) and its subcommands: serve (``serve.py``), worker
(``worker.py``), both started alike (``startup.py``), simulate, audit and replay. The top
entrypoint: may import anything in ``services``."""

from services.cli.main import main

__all__ = ["main"]
