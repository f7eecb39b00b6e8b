"""Ways to spoil an export file: the tamperings the audit must refuse, each naming its line."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from domain.games import make_bot, online_game
from domain.kernel import Setup, Table, bot_turn
from domain.kernel.online import Abandon
from projections.chain import Cause, Charter, Envelope, ExportEntry, ExportHeader, charter_text, commitment, digest
from projections.receipts import SIGNATURE_LINE
from services.store.event_store import seal

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


def entry_lines(data: bytes) -> list[bytes]:
    """The header and entry lines: the file without its signed head, if it has one."""
    lines = lines_of(data)
    return lines[:-1] if lines[-1].startswith(SIGNATURE_LINE) else lines


def envelopes(data: bytes) -> tuple[ExportHeader, list[Envelope]]:
    lines = entry_lines(data)
    header = msgspec.json.decode(lines[0], type=ExportHeader)
    bodies = [msgspec.json.decode(line, type=ExportEntry).body for line in lines[1:]]
    return header, [msgspec.json.decode(body, type=Envelope) for body in bodies]


def rechain(charter: str, seed: str, chain: list[Envelope]) -> bytes:
    """A whole new file, every hash recomputed: what a forger who rewrites everything produces
    (without the service's key: unsigned)."""
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


def runs(chain: list[Envelope]) -> list[list[Envelope]]:
    """The envelopes in runs: the opening, then each command's."""
    found: list[list[Envelope]] = []
    for envelope in chain:
        if found and found[-1][0].command.id == envelope.command.id:
            found[-1].append(envelope)
        else:
            found.append([envelope])
    return found


def with_tail(data: bytes, cut: int, tail: Callable[[Table, Cause], Iterator[tuple[int, Any]]]) -> bytes | None:
    """The file with its commands after the ``cut``-th replaced by those ``tail`` sends (given the
    table as of then and the recorded command that came next), decided by the rules and rechained:
    a log that is a whole, valid match of its own, only not the one the service ran. None where
    ``tail`` sends nothing."""
    header, chain = envelopes(data)
    charter = msgspec.json.decode(header.charter, type=Charter)
    game = online_game(charter.game)
    table = Table(game, Setup(charter.seats, charter.options), header.seed)  # these matches: no seat entropy
    opening, *commands = runs(chain)
    kept = list(opening)
    for run in commands[:cut]:
        table.submit(run[0].command.seat, msgspec.convert(run[0].command.command, game.command_type))
        kept += run
    following = commands[cut][0].command if cut < len(commands) else Cause()
    forged: list[Envelope] = []
    for number, (seat, command) in enumerate(tail(table, following)):
        events = table.submit(seat, command)
        cause = Cause(f"forged{number}", seat, None, msgspec.to_builtins(command))
        time = (forged or kept)[-1].time + 1.0
        forged += [record.envelope for record in seal(events, len(kept) + len(forged) + 1, "", cause, now=time)]
    return rechain(header.charter, header.seed, kept + forged) if forged else None


def other_moves(table: Table, following: Cause) -> Iterator[tuple[int, Any]]:
    """A tail: the seat that acted next sends another legal command than it did, then random bots
    play every seat to the end. Nothing where that seat had no other choice."""
    seat = following.seat
    others = [] if seat is None else [
        command for command in table.game.legal(table.state, seat)
        if msgspec.to_builtins(command) != following.command
    ]
    if not others:
        return
    yield seat, others[0]
    bots = [make_bot(table.game, "random", table.setup.options) for _ in range(table.setup.seats)]
    while not table.finished:
        yield bot_turn(table, bots)


def abandoned(table: Table, following: Cause) -> Iterator[tuple[int, Any]]:
    """A tail: the match abandoned at once (the log cut short, and ended so that it still looks whole)."""
    yield 0, Abandon()
