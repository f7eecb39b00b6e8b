"""The counterfactual leak check: what a seat observes never depends on what it may not know.

The identifier check (``harness.assert_hides``, tests/audit/test_secrecy.py) catches a hidden card
named outright. This one catches what is read around it: an entry's type, who sent it, how many
entries a command appends, whose clock runs, who the match waits for. Over random matches of every
game and option, at sampled versions and for each viewer (every seat and a spectator), the state is
changed in ways the viewer cannot know, into a *twin*:

- two hidden cards of one kind trade places (``game.hidden`` names both for the viewer): another
  seat's hand card and a deck card, two other seats' hand cards, a face-down pick, a deck's order;
- a private setting flipped (Taverna's "always pass" of another seat);
- a sealed answer given or not (another seat asked by an open Taverna prompt has answered it).

What the viewer observes must then be the same, byte for byte, in the state and its twin:

- now: its view (and so ``waiting_for``), its legal commands, and every seat's clock as the
  service shows it (``clocks.due_seats``: running or not);
- after the match's next command, sent in both (the same seat, command and random stream), as long
  as the swapped cards are still hidden from the viewer in both: each entry as its event feed shows
  it (the event as redacted, or ``Hidden`` with no sender), the narration, the number of entries
  (the versions every seat sees), its view and legal commands, and every seat's clock after.

And sealed commands look alike: where the next command appends nothing the viewer may see, every
other command another seat could send instead that appends nothing it may see either must show it
the same (``check_alternatives``): which seat answered a sealed prompt, and with what.

A difference is a finding. ``check_match`` returns them; a sound game gives none.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.bots.random_bot import RandomBot
from domain.kernel import Command, Game, Rng, RulesError, Seat, Setup, Table, bot_turn
from domain.tavern_masters.content import card as tm_card
from domain.taverna.content import SPELLS
from projections import feed
from projections.chain import Cause, Envelope
from services.commands import clocks


@dataclass(frozen=True)
class Twin:
    what: str  # what was changed
    state: Any
    swapped: frozenset[str] = frozenset()  # cards that traded places: after the command, compared while hidden
    then: bool = True  # the next command compared too


@dataclass
class Findings:
    checked: int = 0  # twins compared
    found: list[str] = field(default_factory=list)
    cut: int = 0  # matches checked up to COMMANDS without an end

    def add(self, what: str) -> None:
        self.found.append(what)


def _kind(game_id: str, card: str) -> str | None:
    """Cards of one kind may trade places without making a state no match could reach."""
    if game_id == "taverna":
        spell = SPELLS.get(card)
        return "spell" if spell is not None and not spell.curse else None
    if game_id == "tavern-masters":
        return tm_card(card).deck
    if game_id == "mercenaries":
        return card.rsplit("-", 2)[0]  # mc-<owner>: a player's own deck and hand
    return "card" if game_id == "heros-tavern" else None


def _renamed(value: Any, a: str, b: str) -> Any:
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, dict):
        return {_renamed(k, a, b): _renamed(v, a, b) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, a, b) for v in value]
    return value


def swapped(state: Any, a: str, b: str) -> Any:
    """The state with cards ``a`` and ``b`` in each other's places, wherever they are named."""
    return msgspec.convert(_renamed(msgspec.to_builtins(state), a, b), type(state))


def _private(game: Game, state: Any, viewer: Seat | None) -> Iterator[Twin]:
    """Twins by a private setting or a sealed answer (Taverna's instant-spell prompts)."""
    if game.id == "tavern-masters":
        yield from _moved_unseen(state, viewer)
    if game.id != "taverna":
        return
    from domain.taverna.state import Answer, with_player

    for seat in range(state.seats):
        if seat == viewer:
            continue
        flipped = with_player(state, seat, auto_pass=not state.players[seat].auto_pass)
        yield Twin(f"seat {seat}'s always pass flipped", flipped)
        turn = state.turn
        if state.phase == "turns" and turn is not None and seat in turn.responders:
            answered = [a for a in state.answers if a.seat != seat]
            if len(answered) == len(state.answers):
                answered.append(Answer(seat=seat))
            if len(answered) < len(turn.responders):  # the last answer closes it: never a state at rest
                twin = msgspec.structs.replace(state, answers=tuple(answered))
                # now only: the same next command differs where it is the last answer (it closes the
                # prompt), but the viewer cannot tell whose answer an entry is, so not which is last
                yield Twin(f"seat {seat}'s sealed answer given or not", twin, then=False)


def _moved_unseen(state: Any, viewer: Seat | None, most: int = 2) -> Iterator[Twin]:
    """Tavern Masters: a hand card shown to the viewer has gone, out of its sight, to a third seat's
    hand (a trade between the two, a steal), in exchange for one of that seat's hidden cards (for the
    ``most`` newest cards shown)."""
    from domain.tavern_masters.state import set_player

    for card, to, owner in reversed([s for s in state.shown if s[1] == viewer][-most:]):
        if to != viewer or card not in state.players[owner].hand:
            continue
        for third, player in enumerate(state.players):
            hidden = [c for c in player.hand if third not in (viewer, owner) and (c, viewer, third) not in state.shown]
            if hidden:
                given = hidden[0]
                hands = {owner: state.players[owner].hand, third: player.hand}
                twin = state
                for seat, (a, b) in ((owner, (card, given)), (third, (given, card))):
                    hand = tuple(b if c == a else c for c in hands[seat])
                    twin = set_player(twin, seat, msgspec.structs.replace(twin.players[seat], hand=hand))
                # now only: at the table the card went by a trade or a steal the viewer saw happen (blank),
                # so the viewer knows the two hands could differ; what the next command does with
                # them (a trade of either card falling through) may tell it, as it would there
                yield Twin(f"{card} shown as seat {owner}'s gone to seat {third}", twin, then=False)
                break


def twins(game: Game, state: Any, viewer: Seat | None, rng: Rng, swaps: int) -> Iterator[Twin]:
    """Up to ``swaps`` card swaps the viewer cannot see, then the private twins."""
    by_kind: dict[str, list[str]] = {}
    for card in sorted(game.hidden(state, viewer)):
        kind = _kind(game.id, card)
        if kind is not None:
            by_kind.setdefault(kind, []).append(card)
    pools = [cards for cards in by_kind.values() if len(cards) > 1]
    for _ in range(swaps if pools else 0):
        cards = rng.choice(pools)
        a = rng.choice(cards)
        b = rng.choice([c for c in cards if c != a])
        yield Twin(f"{a} <-> {b}", swapped(state, a, b), swapped=frozenset((a, b)))
    yield from _private(game, state, viewer)


def _encode(value: Any) -> str:
    return json.dumps(msgspec.to_builtins(value), sort_keys=True)


def _due(game: Game, state: Any, seats: int) -> list[bool]:
    due = clocks.due_seats(game, state, seats)
    return [seat in due for seat in range(seats)]


def observed_now(game: Game, state: Any, viewer: Seat | None, seats: int) -> dict[str, str]:
    legal = game.legal(state, viewer) if viewer is not None and game.result(state) is None else []
    due = _encode(_due(game, state, seats))
    return {"view": _encode(game.view(state, viewer)), "legal": _encode(legal), "clocks": due}


def observed_after(game: Game, events: list, viewer: Seat | None, seat: Seat) -> dict[str, str]:
    """What one command's entries show the viewer in its event feed (projections/feed.py, as the
    gateway serves it): each entry's type, event, narration and sender, and how many there are."""
    cause = Cause(id="the-command", seat=seat)
    encode = msgspec.json.encode
    entries = [
        (Envelope(n, type(e).__name__, msgspec.Raw(encode(e)), cause, 0.0, ""), e)
        for n, e in enumerate(events, start=1)
    ]
    return {"entries": _encode(feed.items(game, entries, viewer, 0, False, lambda n: {}))}


def observed(game: Game, events: list, after: Any, viewer: Seat | None, seat: Seat, seats: int) -> dict[str, str]:
    """A command's entries as the viewer's feed shows them, then all it observes in the state after."""
    return observed_after(game, events, viewer, seat) | observed_now(game, after, viewer, seats)


def _differs(before: dict[str, str], twin: dict[str, str]) -> str:
    return ", ".join(key for key in before if before[key] != twin[key])


def check_twin(
    game: Game, setup: Setup, state: Any, twin: Twin, viewer: Seat | None, move: tuple[Seat, Command],
    rng: Callable[[], Rng], findings: Findings, where: str,
) -> None:
    """``rng()``: the random stream of the position, fresh for each world."""
    what, other, cards = twin.what, twin.state, twin.swapped
    seats = setup.seats
    now, now_twin = observed_now(game, state, viewer, seats), observed_now(game, other, viewer, seats)
    findings.checked += 1
    if diff := _differs(now, now_twin):
        findings.add(f"{where}: seat {viewer} tells {what} by its {diff}")
        return
    seat, command = move
    if not twin.then:
        return
    try:
        events, events_twin = game.decide(state, command, seat, rng()), game.decide(other, command, seat, rng())
    except RulesError:
        return  # the command is another seat's, legal in one world only (its hand differs): nothing to compare
    after, after_twin = _fold(game, state, events), _fold(game, other, events_twin)
    if cards and not cards <= game.hidden(after, viewer) & game.hidden(after_twin, viewer):
        return  # the command shows the viewer a swapped card (a deal, a steal): a difference is no leak
    seen = observed(game, events, after, viewer, seat, seats)
    seen_twin = observed(game, events_twin, after_twin, viewer, seat, seats)
    if diff := _differs(seen, seen_twin):
        findings.add(f"{where}: seat {viewer} tells {what} from {type(command).__name__} of seat {seat} by {diff}")


def check_alternatives(
    game: Game, setup: Setup, state: Any, viewer: Seat | None, move: tuple[Seat, Command], rng: Callable[[], Rng],
    pick: Rng, findings: Findings, where: str, most: int = 4,
) -> None:
    """Sealed commands look alike: where the next command appends nothing the viewer may see, any other
    command another seat could send now that appends nothing it may see either must show it the same
    (entries, their types and sender, views, clocks): which seat answered a sealed prompt, and how."""
    seat, command = move
    if seat == viewer:
        return
    events = game.decide(state, command, seat, rng())
    if any(game.event_view(event, viewer) is not None for event in events):
        return
    others = [(s, c) for s in range(setup.seats) if s != viewer for c in game.legal(state, s) if (s, c) != move]
    seen = observed(game, events, _fold(game, state, events), viewer, seat, setup.seats)
    for other_seat, other in pick.shuffle(others)[:most]:
        alternative = game.decide(state, other, other_seat, rng())
        if any(game.event_view(event, viewer) is not None for event in alternative):
            continue
        after = _fold(game, state, alternative)
        seen_other = observed(game, alternative, after, viewer, other_seat, setup.seats)
        findings.checked += 1
        if diff := _differs(seen, seen_other):
            told = f"{type(command).__name__} of seat {seat} from {type(other).__name__} of seat {other_seat}"
            findings.add(f"{where}: seat {viewer} tells {told} by {diff}")


def _fold(game: Game, state: Any, events: list) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


# a match random play has not ended by then is checked up to there: Tavern Masters solo without a
# round cap ends only in a win, which random bots may never reach
COMMANDS = 5_000


def check_match(
    game: Game, setup: Setup, seed: str, findings: Findings, every: int = 4, swaps: int = 1,
    bots: Callable[[], Any] = RandomBot,
) -> Table:
    """Play one match with ``bots`` and check one viewer's twins at every ``every``-th version on average."""
    table = Table(game, setup, seed)
    players = [bots() for _ in range(setup.seats)]
    pick = Rng(seed, 0, "leaks")
    viewers: list[Seat | None] = [*range(setup.seats), None]
    for _ in range(COMMANDS):
        if table.finished:
            return table
        move = bot_turn(table, players)
        if pick.below(every) == 0:
            viewer = pick.choice(viewers)
            where = f"{game.id} {seed} v{table.version}"
            for twin in twins(game, table.state, viewer, pick, swaps):
                check_twin(game, setup, table.state, twin, viewer, move, table.rng, findings, where)
            check_alternatives(game, setup, table.state, viewer, move, table.rng, pick, findings, where)
        table.submit(*move)
    findings.cut += 1
    return table


def option_sets(game: Game) -> list[dict[str, Any]]:
    """Every option at each of its values, the others at their defaults (and all defaults)."""
    sets: list[dict[str, Any]] = [{}]
    for spec in game.options:
        sets += [{spec.name: value} for value in spec.choices if value != spec.default]
    return sets


def run(game: Game, matches: int, prefix: str = "leaks", every: int = 4, swaps: int = 1) -> Findings:
    """``matches`` random matches over every pair of seat count and option set in turn: each run of
    counts x sets matches plays every pair once, and any first ``len(option_sets)`` play every set
    (at seat counts that vary)."""
    findings = Findings()
    options = option_sets(game)
    counts = game.max_seats - game.min_seats + 1
    for n in range(matches):
        pair = n % (counts * len(options))
        chosen = pair % len(options)
        seats = game.min_seats + (pair // len(options) + chosen) % counts
        try:
            setup = game.setup(seats, options[chosen])
        except RulesError:  # an option some seat counts refuse (solo modes)
            setup = game.setup(seats)
        check_match(game, setup, f"{prefix}-{n}", findings, every, swaps)
    return findings
