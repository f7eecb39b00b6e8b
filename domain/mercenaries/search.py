"""The search bot of Tavernkeepers and Mercenaries: determinized Monte Carlo (domain/kernel/search.py)
over the cards a seat cannot see (its own deck's order, the rival's hand and deck), sampled from its
view under the match's options, with the careful bot playing on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from domain.kernel import Game, Rng, Seat, Setup
from domain.kernel.search import Search, margin
from domain.mercenaries.bot import CarefulBot
from domain.mercenaries.content import deck_of, rank_of
from domain.mercenaries.state import Merc, Player, State, initial
from domain.mercenaries.views import MercenariesView, SideView

MATCH_WON = 1000  # a won match outweighs any margin of HP and field
GAME_WON = 200  # so does a won game of a best of three
# in HP: what a Sword on the field may yet take off the rival, one in hand once hired, a Gold paying for both
FIELD_WORTH, HAND_WORTH, GOLD_WORTH = 1.5, 0.5, 0.2


def _player(seen: MercenariesView, side: SideView, rng: Rng) -> Player:
    """A side as the view shows it, its hidden cards (a rival's hand, every deck's order) drawn at
    random from those of its own deck the view does not place."""
    mine = side.seat == seen.seat
    hand = tuple(c.card for c in seen.hand) if mine else ()
    field = tuple(
        Merc(card=m.card.card, position=m.position, turn=seen.turn if m.summoning_sick else seen.turn - 1)
        for m in side.field
    )
    placed = {*hand, *(m.card for m in field), *side.trash}
    unseen = rng.shuffle([c for c in deck_of(side.seat) if c not in placed])
    if not mine:
        hand, unseen = tuple(unseen[: side.hand_count]), unseen[side.hand_count :]
    return Player(hp=side.hp, gold=side.gold, hand=hand, deck=tuple(unseen[: side.deck_count]), field=field,
                  trash=side.trash, all_in_used=side.all_in_used)


def sample(seen: MercenariesView, rng: Rng, options: Mapping[str, Any]) -> State:
    """A state this view could come from, ruled by the match's options; the active seat's Gold at
    dawn is taken as its Gold now."""
    players = tuple(_player(seen, side, rng) for side in seen.sides)
    return replace(
        initial(Setup(len(players), dict(options))), best_of=seen.best_of, players=players, treasury=seen.treasury,
        number=seen.game, wins=seen.wins,
        active=seen.active, turn=seen.turn, phase=seen.phase, contracted=seen.contracted,
        dawn_gold=players[seen.active].gold, sold=seen.sold, all_in_turn=seen.all_in_turn, moved=seen.moved,
        discard_seat=seen.waiting_for if seen.discard_candidates else -1, discard_from=seen.discard_candidates,
        records=seen.games, match_winner=seen.match_winner, last_combat=seen.last_combat,
    )


def scores(state: State) -> list[float]:
    """Games won, then HP, Gold and the Swords on the field and in hand; the match's winner above all."""
    return [
        MATCH_WON * (state.match_winner == seat) + GAME_WON * wins + p.hp + GOLD_WORTH * p.gold
        + FIELD_WORTH * sum(rank_of(m.card).sword for m in p.field) + HAND_WORTH * sum(rank_of(c).sword for c in p.hand)
        for seat, (p, wins) in enumerate(zip(state.players, state.wins, strict=True))
    ]


def _worth(state: State, seat: Seat) -> float:
    return margin(scores(state), seat)


def search_bot(game: Game, options: Mapping[str, Any]) -> Search:
    # the careful bot's move first and in the playouts, replaced only when the playouts find another
    # better by two standard errors: the dice swing a playout by more than a move's budget averages
    # out, and a looser test plays worse than the careful bot (seeds/mercenaries/RULINGS.md)
    return Search(game, sample, _worth, seats=lambda state: len(state.players), policy=CarefulBot,
                  options=options, budget=100, horizon=12, width=4, caution=2.0)
