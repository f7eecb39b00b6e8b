"""Everything with I/O, in layers; imports point down only (tests/service/test_layers.py holds it).

    cli/        the ``tavern`` command                                   (entrypoint)
    gateway/    HTTP: the Starlette app, bare ASGI endpoints, SSE, web/  (entrypoint)
    projector/  worker.py, the RQ worker process                         (entrypoint)
    runtime.py  the composition root: one process's clients and parts
    projector/  the projector: views, bot seats, its RQ jobs and scripts
    commands/   the service layer: commands, matches, folds, bots, seat entropy, tokens, schemas
    store/      the event store and everything that talks Redis for it
    ops/        settings, logs, metrics, the garbage collector's settling

``domain/`` (the rules) and ``projections/`` (pure folds) sit below all of it and import none of it.
"""
