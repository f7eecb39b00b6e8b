"""Redis stream entry ids (``ms-seq``), as clients hand them back to resume after one."""

from __future__ import annotations


def later(entry_id: str, than: str) -> bool:
    """Whether a stream entry id comes after another, compared as Redis orders them (as numbers)."""
    ms, _, seq = entry_id.partition("-")
    other_ms, _, other_seq = than.partition("-")
    return (int(ms), int(seq)) > (int(other_ms), int(other_seq))
