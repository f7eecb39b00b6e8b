"""The projector: dirty matches claimed under a lease, their views written and bot seats played
(``projector.py``; the notices it publishes: ``services/store/notices.py``), its RQ job (``jobs.py``) and the RQ
workers that run it (``workers.py``), and the archiver (``archiver.py``). Its bookkeeping lives
in ``services/store`` (``projector_queue.py``, ``lifecycle.py``). May import ``commands``,
``store`` and ``ops``; the worker process's entrypoint is ``services/cli/worker.py``."""
