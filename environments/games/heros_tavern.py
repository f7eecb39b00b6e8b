"""Hero's Tavern: every card by its id (118), a catalogue of 237 actions.

Actions: ``PickCard(card)`` for each card of the deck, then ``BuyCard(card)`` for each, then
``FinishPurchases``. Features: the round and phase; the seat's hand and face-down pick; per seat
from the observer round the table (padded to 5): its tavern's unpurchased and purchased cards,
tokens, hand size, whether it has picked or still buys, its score; the discard pile; the draw
pile's size; the token supply left (finite_tokens)."""

from __future__ import annotations

from domain.heros_tavern.commands import BuyCard, FinishPurchases, PickCard
from domain.heros_tavern.content import BOX, DECK, TOKEN_KINDS
from domain.heros_tavern.state import HAND_SIZE, ROUNDS
from domain.heros_tavern.views import HtView
from environments.actions import Catalogue
from environments.encoding import Features, relative_seats, vocabulary
from environments.games import Encoding

MAX_SEATS = 5
CARDS = vocabulary(DECK)
PHASES = ("draft", "purchase", "over")
TOKENS = 4 * BOX  # more than a seat ever holds of one kind (clipped there)
SCORE = 500


def encode(features: Features, view: HtView, seat: int, seats: int) -> None:
    features.number("round", view.round, ROUNDS)
    features.one_hot("phase", view.phase, PHASES)
    features.number("pick_number", view.pick_number, HAND_SIZE)
    features.counts("hand", (c.id for c in view.hand), CARDS)
    features.counts("my_pick", [view.my_pick.id] if view.my_pick else [], CARDS)
    order = relative_seats(seat, seats)
    panels = [view.seats[s] for s in order]
    for k in range(MAX_SEATS):
        panel = panels[k] if k < seats else None
        tavern = panel.tavern if panel else ()
        features.number(f"seat{k}_present", panel is not None, 1)
        features.counts(f"seat{k}_tavern", (t.card.id for t in tavern if t.tokens is None), CARDS)
        features.counts(f"seat{k}_purchased", (t.card.id for t in tavern if t.tokens is not None), CARDS)
        features.numbers(
            f"seat{k}_tokens",
            (getattr(panel.tokens, kind) for kind in TOKEN_KINDS) if panel else (),
            len(TOKEN_KINDS),
            TOKENS,
        )
        features.number(f"seat{k}_hand_size", panel.hand_size if panel else 0, HAND_SIZE)
        features.number(f"seat{k}_picked", bool(panel and panel.picked), 1)
        features.number(f"seat{k}_purchasing", bool(panel and panel.purchasing), 1)
        features.number(f"seat{k}_score", panel.score if panel else 0, SCORE)
    features.counts("discard", view.discard, CARDS)
    features.number("deck_size", view.deck_size, len(DECK))
    supply = view.supply
    features.number("finite_tokens", supply is not None, 1)
    features.numbers("supply", (getattr(supply, kind) for kind in TOKEN_KINDS) if supply else (), len(TOKEN_KINDS), BOX)


ENCODING = Encoding(
    actions=Catalogue(
        (
            *(PickCard(card=c) for c in CARDS),
            *(BuyCard(card=c) for c in CARDS),
            FinishPurchases(),
        )
    ),
    encode=encode,
)
