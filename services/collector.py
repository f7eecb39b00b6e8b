"""Python's garbage collector, settled once a process has started.

Start-up objects (modules, schemas, seeds) are frozen out of its way: its gen-2 passes over them
made most of the p99 of a bare POST. And a young-generation pass waits for 20,000 allocations, not
700: a command allocates hundreds of short-lived objects (the request, the event, its envelope, the
answer), so at the default a collection ran every request or two, and the older generations
followed ten times as often. Measured on the 2-core benchmark at 200 matches: gateway CPU per
command 377-412 us against 441-443, and 8-12% more commands/s (two runs each).
"""

from __future__ import annotations

import gc

YOUNG = 20_000  # allocations between young-generation passes (CPython's default: 700)
OLDER = 20  # passes of a generation between passes of the next (CPython's default: 10)


def settle() -> None:
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
