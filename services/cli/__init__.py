"""The ``tavern`` command (``main.py``) and its subcommands: serve and worker (``serve.py``),
simulate, audit and replay. The top entrypoint: may import anything in ``services``."""

from services.cli.main import main

__all__ = ["main"]
