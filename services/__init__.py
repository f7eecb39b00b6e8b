"""Everything with I/O, in layers; imports point down only (pyproject.toml's import contracts hold it).

    cli/        the ``tavern`` command: serve, worker...                 (entrypoint)
    gateway/    HTTP: the Starlette app, bare ASGI endpoints, SSE and WebSocket, schemas, web/  (entrypoint)
    runtime.py  the composition root: one process's connections, repositories and parts
    projector/  the projector: views, bot seats, its RQ job, the sweeps, the archiver
    commands/   the service layer (no HTTP): commands and their outcomes, matches, lobby, folds, bots
    store/      every Redis key, command and script: connections and repositories
    ops/        settings, logs, metrics, the garbage collector's settling

``domain/`` (the rules) and ``projections/`` (pure folds) sit below all of it and import none of it.
"""
