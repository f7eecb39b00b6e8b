"""An export made without the service: a bot match played in memory (with the service's concede, leave
and timeouts, domain/kernel/online.py), sealed exactly as the service seals its log
(services/store/event_store.py) under a charter. For benchmarks and quick checks."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import fallback_bot, get_game, make_bot
from domain.kernel import AnyGame, Setup, Table, bot_turn
from domain.kernel.online import TimedOut, bot_label, online
from domain.kernel.rng import DERIVATION
from domain.kernel.undo import Undo, undoer
from projections.chain import CHARTER_FORMAT, Charter, charter_text, commitment, digest, export_lines
from services.store.event_store import Cause, seal


def export_of_play(game_id: str, seats: int, seed: str, options: dict | None = None, bot: str = "random",
                   recorded: tuple[int, dict] | None = None, signer: Ed25519PrivateKey | None = None,
                   timeouts: int = 0, release: AnyGame | None = None, undos: bool = False) -> bytes:
    """``recorded``: the rules version and options of a charter written before the game had some of its
    options (played as the fold reads such a charter); by default the game's version and every option.
    ``signer``: the service's key, to sign the head as the service does (unsigned without).
    ``timeouts``: every so many commands, the seat to act times out instead, as the service sends it
    (its move by the game's fallback bot); ``release``: the game as the release that played the match
    had it (its bots and their generations), this one's by default. ``undos``: each move its game lets a
    seat take back is taken back once (Undo, as the service fills it in) and played again."""
    game = release or get_game(game_id)
    setup = game.setup(seats, options)
    version, charter_options = recorded or (game.rules_version, setup.options)
    if recorded:
        setup = Setup(seats, charter_options)
    charter = charter_text(
        Charter(CHARTER_FORMAT, f"offline-{seed}", game.id, version, seats, charter_options,
                commitment(seed), DERIVATION, [])
    )
    table = Table(online(game, lambda kind, options: make_bot(game, kind, options)), setup, seed)
    start = 1_750_000_000.0  # 2025-06: times within the service's window, one second a command
    records = seal(table.events, 1, digest(charter.encode()), Cause(), now=start)
    bots = [make_bot(game, bot, setup.options) for _ in range(seats)]
    played = 0
    while not table.finished:
        seat, command = bot_turn(table, bots)
        played += 1
        if timeouts and played % timeouts == 0:
            command = TimedOut(bot=bot_label(game, fallback_bot(game, setup)))
        events = table.submit(seat, command)
        cause = Cause(f"c{len(records)}", seat, None, command)
        records += seal(events, len(records) + 1, records[-1].hash, cause, now=start + len(records))
        if undos and undoer(table.game, table.state, (seat, len(events))) == seat:
            for again in (Undo(events=len(events)), command):
                events = table.submit(seat, again)
                cause = Cause(f"c{len(records)}", seat, None, again)
                records += seal(events, len(records) + 1, records[-1].hash, cause, now=start + len(records))
    return export_lines(charter, seed, [(record.body, record.hash) for record in records], signer)
