"""The projector: dirty matches claimed under a lease, their views written and bot seats played
(``projector.py``, with ``claim.lua``, ``release.lua`` and ``mark.lua`` beside it), the notices it
publishes (``notices.py``) and its RQ jobs (``jobs.py``). May import ``commands``, ``store`` and ``ops``.

``worker.py`` is the exception: the worker process's entrypoint, which runs those jobs on a
``services.runtime.Runtime``, and so sits above the runtime with the other entrypoints."""
