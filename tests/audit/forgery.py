"""Ways to spoil an export file: the tamperings the audit must refuse, each naming its line."""

from __future__ import annotations

import msgspec

from projections.chain import Charter, Envelope, ExportEntry, ExportHeader, charter_text, commitment, digest

encode = msgspec.json.encode


def lines_of(data: bytes) -> list[bytes]:
    return data[:-1].split(b"\n")


def file_of(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def change_byte(data: bytes, position: int) -> bytes:
    """The file with the byte at ``position`` replaced by another printable one."""
    old = data[position]
    new = ord("0") if old != ord("0") else ord("1")
    if old == ord("\n"):
        new = ord(" ")
    return data[:position] + bytes([new]) + data[position + 1 :]


def line_of(data: bytes, position: int) -> int:
    return data.count(b"\n", 0, position) + 1


def envelopes(data: bytes) -> tuple[ExportHeader, list[Envelope]]:
    lines = lines_of(data)
    header = msgspec.json.decode(lines[0], type=ExportHeader)
    bodies = [msgspec.json.decode(line, type=ExportEntry).body for line in lines[1:]]
    return header, [msgspec.json.decode(body, type=Envelope) for body in bodies]


def rechain(charter: str, seed: str, chain: list[Envelope]) -> bytes:
    """A whole new file, every hash recomputed: what a forger who rewrites everything produces."""
    genesis = digest(charter.encode())
    lines = [encode(ExportHeader("tavern-export/1", charter, genesis, seed))]
    prev = genesis
    for envelope in chain:
        body = encode(msgspec.structs.replace(envelope, prev=prev))
        prev = digest(body)
        lines.append(encode(ExportEntry(body.decode(), prev)))
    return file_of(lines)


def with_seed(data: bytes, seed: str) -> bytes:
    """The file re-made around another seed: new commitment, new charter, all hashes redone."""
    header, chain = envelopes(data)
    charter = msgspec.json.decode(header.charter, type=Charter)
    forged = charter_text(msgspec.structs.replace(charter, seed_commitment=commitment(seed)))
    return rechain(forged, seed, chain)


def with_charter(data: bytes, **changes) -> bytes:
    """The file re-made under a charter with ``changes``, every hash redone (a forger's whole match)."""
    header, chain = envelopes(data)
    charter = msgspec.json.decode(header.charter, type=Charter)
    return rechain(charter_text(msgspec.structs.replace(charter, **changes)), header.seed, chain)


def with_envelope(data: bytes, version: int, **changes) -> bytes:
    """The file with one envelope changed and every hash after it redone."""
    header, chain = envelopes(data)
    chain[version - 1] = msgspec.structs.replace(chain[version - 1], **changes)
    return rechain(header.charter, header.seed, chain)
