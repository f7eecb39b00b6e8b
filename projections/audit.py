"""The offline audit of an exported match (``tavern-export/1``, docs/AUDIT.md); pure.

Checks, in this order, stopping at the first failure with the line and the reason:

1. the file: JSON Lines, every line in its canonical encoding (so no byte can change unnoticed),
   every event and command too (no extra, missing or reordered field); the charter's game, seats
   and options ones the service accepts (the same ``Game.setup`` it calls); times that never go
   backwards and lie in the service's window (after its epoch, before the audit);
2. the chain: the header's genesis is the SHA-256 of its charter; every entry's hash is the
   SHA-256 of its body; versions run 1, 2, 3 ... and each ``prev`` is the previous hash;
3. the seed: its SHA-256 is the charter's commitment, under a derivation this code knows;
4. the head: the signed head on the last line (a finished match's export) names this match and
   this log's last version and hash; with the service's public key, the signature is its; each
   receipt given (projections/receipts.py) binds the entry at its version, a last hash given is
   the last entry's. So a log cut short or rewritten past a receipt, or past the signed head, is
   refused without the rest of the log having to be kept elsewhere;
5. the rules: the opening events are what ``begin`` draws from the seed at version 0, and every
   command, decided again against the state folded so far with the random stream of its
   position, gives exactly the events recorded for it (a timed-out move chosen by a bot generation
   this release does not have: the events of one of the seat's legal moves, counted in the report);
   an ``Undo`` takes back the command just before it, whole and a move of its own seat (the rules
   then say whether its game lets that move be taken back); the log ends with the match over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.games import online_game
from domain.kernel import Event, Game, Result, Rng, RulesError, Setup
from domain.kernel.rng import DERIVATION
from domain.kernel.undo import Undo
from projections.chain import (
    CHARTER_FORMAT,
    EXPORT_FORMAT,
    Cause,
    Charter,
    Envelope,
    ExportEntry,
    ExportHeader,
    commitment,
    digest,
    effective_seed,
)
from projections.receipts import (
    HEAD_FORMAT,
    SIGNATURE_LINE,
    ExportSignature,
    Head,
    public_hex,
    public_key,
    receipt,
    signed_by,
)
from projections.undo import own_move
from projections.upcasting import UpcastError, event_decoder


class AuditFailure(Exception):
    """The first thing wrong with an export: where (line and version) and why."""

    def __init__(self, line: int, version: int | None, reason: str) -> None:
        self.line, self.version, self.reason = line, version, reason
        where = f"line {line}" + ("" if version is None else f" (version {version})")
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True, slots=True)
class Entry:
    line: int
    envelope: Envelope
    event: Event
    hash: str


@dataclass(frozen=True, slots=True)
class Chain:
    """An export whose file and hash chain are sound, decoded; the seed not yet checked."""

    header: ExportHeader
    charter: Charter
    game: Game
    entries: list[Entry]
    signature: ExportSignature | None = None  # the signed head, on the last line of a finished match's export

    @property
    def setup(self) -> Setup:
        return Setup(self.charter.seats, self.charter.options)

    @property
    def events(self) -> list[Event]:
        return [entry.event for entry in self.entries]


@dataclass(frozen=True, slots=True)
class Report:
    match_id: str
    game: str
    rules_version: int
    seats: int
    entries: int
    opening_events: int
    commands: int
    last_hash: str
    result: Result
    entropy_seats: list[int]  # whose entropy was folded into the seed
    signature: str  # what vouches for the log's end: the signature verified, or why it was not
    receipts: int  # how many receipts (and a last hash) were checked against their entries
    # timed-out moves chosen by a bot generation this release does not have: checked to be one of
    # the seat's legal moves, not decided again
    legality_only: int = 0


# what a malformed line makes msgspec raise: invalid UTF-8 in a string is a UnicodeDecodeError,
# nesting past the interpreter's recursion limit a RecursionError
MALFORMED = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError)
EPOCH = 1_704_067_200.0  # 2024-01-01 UTC: no log of the service is older
CLOCK_SKEW_S = 24 * 3600.0  # how far past the audit's own clock a time may lie (clocks differ)


def _strict(line_no: int, line: bytes, kind: Any, version: int | None = None) -> Any:
    """Decode one JSON text that must be exactly the canonical encoding of ``kind``."""
    try:
        value = msgspec.json.decode(line, type=kind)
    except MALFORMED as problem:
        reason = str(problem) or type(problem).__name__
        raise AuditFailure(line_no, version, f"not a valid {kind.__name__}: {reason}") from problem
    if msgspec.json.encode(value) != line:
        raise AuditFailure(line_no, version, f"not the canonical encoding of a {kind.__name__}")
    return value


def split_lines(data: bytes) -> list[bytes]:
    if not data.endswith(b"\n"):
        raise AuditFailure(data.count(b"\n") + 1, None, "the file does not end with a newline")
    lines = data[:-1].split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line:
            raise AuditFailure(number, None, "an empty line")
    return lines


def _header(line: bytes, games: Callable[[str], Game]) -> tuple[ExportHeader, Charter, Game]:
    header = _strict(1, line, ExportHeader)
    if header.format != EXPORT_FORMAT:
        raise AuditFailure(1, None, f"unknown export format {header.format!r} (this auditor reads {EXPORT_FORMAT})")
    if digest(header.charter.encode()) != header.genesis:
        raise AuditFailure(1, None, "the genesis is not the SHA-256 of the charter")
    charter = _strict(1, header.charter.encode(), Charter)
    if charter.format != CHARTER_FORMAT:
        raise AuditFailure(1, None, f"unknown charter format {charter.format!r}")
    try:
        game = games(charter.game)
        # the very check the service makes at creation: what it would refuse never had a match
        setup = game.setup(charter.seats, charter.options)
    except RulesError as problem:
        raise AuditFailure(1, None, f"a charter the service refuses: {problem.message}") from problem
    # each value as the service writes it; an option the charter lacks is one added since it was
    # written, whose default plays as the rules did then (the fold fills it in the same way)
    if {name: value for name, value in setup.options.items() if name in charter.options} != charter.options:
        raise AuditFailure(1, None, f"the charter's options are not the service's own {setup.options}")
    if charter.entropy_seats != sorted(set(charter.entropy_seats) & set(range(charter.seats))):
        raise AuditFailure(1, None, f"entropy seats {charter.entropy_seats} are not distinct seats in order")
    if not 1 <= charter.rules_version <= game.rules_version:
        raise AuditFailure(1, None, f"{game.id} has no rules version {charter.rules_version}")
    return header, charter, game


def verify_chain(data: bytes, games: Callable[[str], Game] = online_game, now: float | None = None) -> Chain:
    """Steps 1 and 2: the file and the hash chain, every event decoded (upcast if it is older).
    ``now``: the audit's clock, which no time may pass (by more than CLOCK_SKEW_S)."""
    lines = split_lines(data)
    header, charter, game = _header(lines[0], games)
    signature = None
    if len(lines) > 1 and lines[-1].startswith(SIGNATURE_LINE):
        signature = _strict(len(lines), lines.pop(), ExportSignature)
    try:
        decode = event_decoder(game, charter.rules_version)
    except UpcastError as problem:
        raise AuditFailure(1, None, str(problem)) from problem
    prev = header.genesis
    entries = []
    latest = EPOCH
    current = charter.rules_version == game.rules_version  # an older event is upcast: its rules' shape
    for version, line in enumerate(lines[1:], start=1):
        number = version + 1
        entry = _strict(number, line, ExportEntry, version)
        body = entry.body.encode()
        if digest(body) != entry.hash:
            raise AuditFailure(number, version, "the hash is not the SHA-256 of the body")
        envelope = _strict(number, body, Envelope, version)
        if envelope.version != version:
            raise AuditFailure(number, version, f"the envelope says version {envelope.version}: moved or missing")
        if envelope.prev != prev:
            raise AuditFailure(number, version, "prev is not the previous entry's hash: an entry removed or moved")
        try:
            event = decode(envelope.event)
        except (*MALFORMED, UpcastError) as problem:
            raise AuditFailure(number, version, f"not an event of {game.id}: {problem}") from problem
        if type(event).__struct_config__.tag != envelope.type:
            raise AuditFailure(number, version, f"the envelope type {envelope.type!r} is not the event's")
        if current and not _in_field_order(msgspec.json.decode(envelope.event), event):
            raise AuditFailure(number, version, "the event is not in its encoding: a field added or moved")
        latest = _checked_time(number, version, envelope.time, latest, now)
        entries.append(Entry(number, envelope, event, entry.hash))
        prev = entry.hash
    return Chain(header, charter, game, entries, signature)


def _in_field_order(raw: Any, value: Any) -> bool:
    """Whether ``raw`` (the JSON as written) is ``value``'s encoding, field by field: no name that
    is not a field, every field in its order (a field at its default may be left out, as encodings
    of the same rules version have done; the decode has checked each value)."""
    if isinstance(value, msgspec.Struct):
        if not isinstance(raw, dict):
            return False
        config = value.__struct_config__
        names = ([config.tag_field] if config.tag_field else []) + list(value.__struct_encode_fields__)
        if [name for name in names if name in raw] != list(raw):
            return False  # a name that is no field, or fields out of order
        return all(_in_field_order(raw[name], getattr(value, attribute)) for name, attribute in
                   zip(value.__struct_encode_fields__, value.__struct_fields__, strict=True) if name in raw)
    if isinstance(value, (list, tuple)):
        return isinstance(raw, list) and len(raw) == len(value) and all(map(_in_field_order, raw, value))
    return True


def _checked_time(line: int, version: int, time: float, latest: float, now: float | None) -> float:
    """The entry's time, if it follows ``latest`` and lies in the window."""
    if not math.isfinite(time) or time < EPOCH:
        raise AuditFailure(line, version, f"time {time} is before the service existed")
    if time < latest:
        raise AuditFailure(line, version, f"time {time} goes backwards (the entry before: {latest})")
    if now is not None and time > now + CLOCK_SKEW_S:
        raise AuditFailure(line, version, f"time {time} is in the future of this audit ({now})")
    return time


def verify_seed(chain: Chain) -> None:
    """Step 3: the revealed seed is the committed one, under a derivation this code implements."""
    if chain.charter.rng != DERIVATION:
        raise AuditFailure(1, None, f"unknown random derivation {chain.charter.rng!r} (known: {DERIVATION})")
    if commitment(chain.header.seed) != chain.charter.seed_commitment:
        raise AuditFailure(1, None, "the revealed seed does not match the seed commitment")


@dataclass(frozen=True, slots=True)
class Anchors:
    """What the auditor is given from outside the file to pin where the log ends (docs/AUDIT.md)."""

    key: Ed25519PublicKey | None = None  # the service's published key: the signature must be its
    receipts: tuple[tuple[int, str], ...] = ()  # (version, receipt) from accepted commands' answers
    last_hash: str | None = None  # the last entry's hash, kept from elsewhere


def verify_head(chain: Chain, anchors: Anchors) -> str:
    """Step 4: the signed head, the receipts and the last hash against the log; what vouches for
    its end, said in words."""
    entries, end = chain.entries, len(chain.entries) + 2  # the signature's line (or where it would be)
    last = entries[-1] if entries else None
    for version, given in anchors.receipts:
        if not 1 <= version <= len(entries):
            raise AuditFailure(end, None, f"a receipt for version {version}, but the log ends at version "
                                          f"{len(entries)}: cut short")
        entry = entries[version - 1]
        if receipt(chain.header.seed, chain.charter.match_id, version, entry.hash) != given:
            raise AuditFailure(entry.line, version, "not the entry the receipt for this version was given "
                                                    "for: the log was rewritten")
    if anchors.last_hash is not None and (last is None or last.hash != anchors.last_hash):
        raise AuditFailure(*_where(last), "the last hash is not the one given: the log was cut short or rewritten")
    signed = chain.signature
    if signed is None:
        if anchors.key is not None:
            raise AuditFailure(end - 1, None, "no signed head: the export of an unfinished match, or of a service "
                                              "before signatures; nothing vouches for where the log ends")
        return "none (an unfinished match's export, or one from before signatures)"
    head = _strict(end, signed.head.encode(), Head)
    charter, header = chain.charter, chain.header
    expected = Head(HEAD_FORMAT, charter.match_id, charter.game, charter.seed_commitment, header.genesis,
                    len(entries), last.hash if last else header.genesis)
    if head != expected:
        raise AuditFailure(end, None, f"the signed head is not this log's ({msgspec.json.encode(expected).decode()}):"
                                      " the log was cut short or rewritten, or the head edited")
    try:
        named = public_key(signed.key)
    except ValueError as problem:
        raise AuditFailure(end, None, f"the signer's key: {problem}") from problem
    if not signed_by(named, signed):  # so no byte of the line is free, even with no key given
        raise AuditFailure(end, None, f"the signature is not key {signed.key}'s signature of the head")
    if anchors.key is None:
        return f"signed by key {signed.key}, which is not checked to be the service's (no key given: --key)"
    if signed.key != public_hex(anchors.key):
        raise AuditFailure(end, None, f"signed by key {signed.key}, not by the key given ({public_hex(anchors.key)})")
    return f"signed by the key given, {signed.key}"


def _groups(entries: list[Entry]) -> Iterator[list[Entry]]:
    """The entries in runs written by one command (the opening run has no command id)."""
    run: list[Entry] = []
    for entry in entries:
        if run and entry.envelope.command.id != run[0].envelope.command.id:
            yield run
            run = []
        run.append(entry)
    if run:
        yield run


def _where(entry: Entry | None) -> tuple[int, int | None]:
    """The line and version to name for an entry; line 1 (the header) when there is none."""
    return (entry.line, entry.envelope.version) if entry else (1, None)


def _compare(decided: list[Event], run: list[Entry], what: str) -> None:
    for offset, entry in enumerate(run):
        if offset >= len(decided):
            raise AuditFailure(entry.line, entry.envelope.version, f"{what} gives no such event")
        if decided[offset] != entry.event:
            raise AuditFailure(
                entry.line, entry.envelope.version, f"{what} gives {msgspec.json.encode(decided[offset]).decode()}"
            )
    if len(decided) > len(run):
        raise AuditFailure(*_where(run[-1] if run else None), f"{what} gives {len(decided) - len(run)} more event(s)")


def _command(game: Game, entry: Entry, seats: int) -> tuple[Any, int]:
    cause = entry.envelope.command
    version = entry.envelope.version
    if cause.id is None or cause.command is None or cause.seat is None:
        raise AuditFailure(entry.line, version, "an event after the opening without the command that caused it")
    if not 0 <= cause.seat < seats:
        raise AuditFailure(entry.line, version, f"no seat {cause.seat}")
    try:
        command = msgspec.convert(cause.command, game.command_type)
    except MALFORMED as problem:
        raise AuditFailure(entry.line, version, f"not a command of {game.id}: {problem}") from problem
    if msgspec.json.encode(command) != msgspec.json.encode(cause.command):
        raise AuditFailure(entry.line, version, "the command is not in its canonical encoding (a field added, "
                                                "missing or moved)")
    return command, cause.seat


def _opening_seed(chain: Chain, opening: list[Entry]) -> str:
    """The seed the draws use: the revealed one with the seats' entropy folded in."""
    cause = opening[0].envelope.command if opening else Cause()
    for entry in opening:
        if entry.envelope.command != cause or cause.seat is not None or cause.command is not None:
            raise AuditFailure(entry.line, entry.envelope.version, "the opening entries disagree on what opened them")
    given = sorted(int(seat) for seat in cause.entropy or {})
    if given != sorted(chain.charter.entropy_seats):
        reason = f"entropy from seats {given}, but the charter waits for {sorted(chain.charter.entropy_seats)}"
        raise AuditFailure(*_where(opening[0] if opening else None), reason)
    return effective_seed(chain.header.seed, cause.entropy)


def _decided(game: Game, state: Any, command: Any, seat: int, rng: Callable[[], Rng],
             run: list[Entry]) -> tuple[list[Event], bool]:
    """The events the rules give the command, and whether they were only found among its legal
    alternatives (a timeout by a bot generation this release does not have: the recorded events,
    when one of the seat's legal moves gives them)."""
    first = run[0]
    recorded = [entry.event for entry in run]
    try:
        ways = game.alternatives(state, command, seat, rng) if game.alternatives else None
        if ways is None:
            return game.decide(state, command, seat, rng()), False
        found = any(way == recorded for way in ways)
    except RulesError as refusal:
        reason = f"the rules refuse this command: {refusal}"
        raise AuditFailure(first.line, first.envelope.version, reason) from refusal
    except Exception as crash:  # a forged command the game never expected: still a named failure
        reason = f"the rules cannot decide this command: {type(crash).__name__}: {crash}"
        raise AuditFailure(first.line, first.envelope.version, reason) from crash
    if not found:
        raise AuditFailure(first.line, first.envelope.version, f"seat {seat}'s {type(command).__name__} at version "
                           f"{first.envelope.version - 1}, by a bot generation this release does not have, gives "
                           "the events of none of its legal moves")
    return recorded, True


def _undoes_own_move(previous: list[Entry], command: Undo, seat: int, first: Entry) -> None:
    """An undo takes back the run just before it, whole, a move its own seat sent (projections/undo.py)."""
    last = own_move(previous[0].envelope.command, len(previous)) if previous else None
    if last != (seat, command.events):
        raise AuditFailure(first.line, first.envelope.version, f"seat {seat}'s Undo of {command.events} event(s) "
                           "does not take back the move just before it, whole and its own")


def verify_rules(chain: Chain) -> tuple[int, int, int, Result]:
    """Step 4: every event decided again from the seed and the recorded commands.
    Answers (opening events, commands, those checked for legality only, result)."""
    game, entries = chain.game, chain.entries
    state = game.initial(chain.setup)
    count = 0
    while count < len(entries) and entries[count].envelope.command.id is None:
        count += 1
    opening = entries[:count]  # written by no command: at creation, or once every seat gave entropy
    seed = _opening_seed(chain, opening)
    _compare(game.begin(state, Rng(seed, 0)), opening, "the opening deal from the seed")
    for entry in opening:
        state = game.evolve(state, entry.event)
    commands = legality_only = 0
    previous: list[Entry] = []  # the run before this one (an undo takes it back)
    for run in _groups(entries[len(opening) :]):
        first = run[0]
        command, seat = _command(game, first, chain.charter.seats)
        for entry in run[1:]:
            if entry.envelope.command != first.envelope.command:
                raise AuditFailure(entry.line, entry.envelope.version, "one command id with two different commands")
        if isinstance(command, Undo):
            _undoes_own_move(previous, command, seat, first)
        before = first.envelope.version - 1
        decided, alternative = _decided(game, state, command, seat, partial(Rng, seed, before), run)
        _compare(decided, run, f"seat {seat}'s {type(command).__name__} at version {before}")
        legality_only += alternative
        for entry in run:
            state = game.evolve(state, entry.event)
        commands += 1
        previous = run
    result = game.result(state)
    if result is None:
        raise AuditFailure(*_where(entries[-1] if entries else None), "the log ends before the match is over")
    return len(opening), commands, legality_only, result


def audit(
    data: bytes, games: Callable[[str], Game] = online_game, now: float | None = None, anchors: Anchors = Anchors()
) -> Report:
    """All five steps; raises AuditFailure at the first thing wrong. ``now``: the audit's clock."""
    chain = verify_chain(data, games, now)
    verify_seed(chain)
    signature = verify_head(chain, anchors)
    opening, commands, legality_only, result = verify_rules(chain)
    charter = chain.charter
    last = chain.entries[-1].hash
    return Report(
        charter.match_id, charter.game, charter.rules_version, charter.seats,
        len(chain.entries), opening, commands, last, result, charter.entropy_seats,
        signature, len(anchors.receipts) + (anchors.last_hash is not None), legality_only,
    )
