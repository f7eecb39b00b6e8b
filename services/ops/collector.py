"""Python's garbage collector, settled once a process has started.

Start-up objects (modules, schemas, seeds) are frozen out of its way: its gen-2 passes over them
made most of the p99 of a bare POST. And a young-generation pass waits for 100,000 allocations, not
700. What counts is allocations less deallocations of tracked objects, and reference counting frees
almost everything a command allocates; what stays is the state of the requests in flight, about
37,000 objects in the gateway at 200 busy matches (800 streams, some 400 commands in flight). A
threshold below that made a pass every few hundred milliseconds, each walking all of it and
freeing nothing (8-15 ms, and a 20-40 ms older pass every twentieth). Above it, a pass runs only
when garbage that reference counting cannot free (cycles) has piled up. Measured on the 2-core
benchmark over one run of 10, 50 and 200 matches: 48 young passes and 2 older ones, 579 ms in all,
at 20,000; one pass, 28 ms, at 100,000. (At 700, CPython's default, against 20,000: gateway CPU per
command 441-443 us against 377-412 at 200 matches.)
"""

from __future__ import annotations

import gc

YOUNG = 100_000  # net allocations between young-generation passes (CPython's default: 700)
OLDER = 20  # passes of a generation between passes of the next (CPython's default: 10)


def settle() -> None:
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
