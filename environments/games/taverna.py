"""Taverna: customer cards (34), spells (32) and royal favours (15) by id, actions as slots of
``legal`` (1024).

Why slots: a dignitary's activation names a tavern and one to three favour tiles, peoples or guild
tokens, and a favour or spell names peoples, guilds, taverns and tables, so the commands that can
ever be legal are the products of those choices; the longest ``legal`` measured is a few hundred
(a Princess or an Ambassador in reach of several taverns). Each slot's command type and card
(customer, spell or favour) are in the observation.

Features: the phase, the King's and the Queen's people; per tavern (t1-t5): each table's people and
the people of the customer on it, each deed's price, points and owner (relative to the observer),
its guild symbols, privilege and dignitaries; per seat round the table from the observer (padded to
5): coins, points, levels, hand (the observer's own only), its size, spells cast, spells sold,
favours held and used, privileges, customers taken, royal scorings; the customer row, the piles'
sizes, the castle's favours, the reserves, the guild tokens and tiles left; the turn (whose, its
step, card, people, symbols, tavern, spells allowed and cast, dignitaries and favour kinds used,
the seats a prompt or favour window asks); whom the match waits for; the observer's own "always
pass" and sealed answer; the deed and royal orders, the royal scorings taken; turns played and
the final scores."""

from __future__ import annotations

import typing

from domain.kernel import Command
from domain.taverna.commands import TavernaCommand
from domain.taverna.content import BOARD, CARD_GUILDS, CUSTOMERS, DIGNITARIES, FAVOURS, GUILDS, PEOPLES, SPELLS
from domain.taverna.scoring import OPTIONS
from domain.taverna.views import TavernaView
from environments.actions import LegalSlots
from environments.encoding import Features, relative_seats, vocabulary
from environments.games import Encoding

MAX_SEATS = 5
SLOTS = 1024
CUSTOMER_IDS = vocabulary(CUSTOMERS)
SPELL_IDS = vocabulary(SPELLS)
FAVOUR_IDS = vocabulary(FAVOURS)
CARDS = vocabulary((*CUSTOMERS, *SPELLS, *FAVOURS))  # what a slot's command names
SYMBOLS = vocabulary(CARD_GUILDS)
DIGNITARY_IDS = vocabulary(DIGNITARIES)
SCORINGS = vocabulary(OPTIONS)
FAVOUR_KINDS = vocabulary(sorted({f.kind for f in FAVOURS.values()}))
TAVERNS = tuple(dict.fromkeys(t.id for side in BOARD.sides for t in side.taverns))
TABLES = max(len(t.tables) for side in BOARD.sides for t in side.taverns)
DEEDS = max(len(t.deeds) for side in BOARD.sides for t in side.taverns)
PHASES = ("people", "deeds", "turns", "royal", "over")
STEPS = ("pick", "place", "act")
PEOPLE = ("", *PEOPLES)
MANY = 200  # coins, points, pile sizes: clipped here


def card_slot(command: Command) -> int:
    named = getattr(command, "card", "") or getattr(command, "favour", "")
    return 1 + CARDS[named] if named else 0


def encode(features: Features, view: TavernaView, seat: int, seats: int) -> None:
    order = relative_seats(seat, seats)
    where = {s: k for k, s in enumerate(order)}

    def flags(name: str, chosen: typing.Iterable[int]) -> None:
        """Which seats, by their place round the table from the observer."""
        marked = set(chosen)
        features.numbers(name, (order[k] in marked for k in range(seats)), MAX_SEATS, 1)

    features.one_hot("phase", view.phase, PHASES)
    features.one_hot("king", view.king, PEOPLE)
    features.one_hot("queen", view.queen, PEOPLE)
    taverns = {t.id: t for t in view.taverns}
    for tid in TAVERNS:
        tavern = taverns[tid]
        for j in range(TABLES):
            features.one_hot(f"{tid}_table{j}", tavern.tables[j] if j < len(tavern.tables) else "", PEOPLE)
            features.one_hot(f"{tid}_customer{j}", tavern.customers[j] if j < len(tavern.customers) else "", PEOPLE)
        features.numbers(f"{tid}_deed_price", (d.price for d in tavern.deeds), DEEDS, MANY)
        features.numbers(f"{tid}_deed_points", (d.points for d in tavern.deeds), DEEDS, MANY)
        # 0: unowned, 1 + the owner's place round the table from the observer
        features.numbers(
            f"{tid}_deed_owner", (where[d.owner] + 1 if d.owner >= 0 else 0 for d in tavern.deeds), DEEDS, MAX_SEATS
        )
        features.counts(f"{tid}_symbols", tavern.symbols, SYMBOLS, TABLES)
        features.number(f"{tid}_privilege", tavern.privilege, 1)
        features.counts(f"{tid}_dignitaries", tavern.dignitaries, DIGNITARY_IDS)
    for k in range(MAX_SEATS):
        p = view.players[order[k]] if k < seats else None
        features.number(f"seat{k}_present", p is not None, 1)
        features.number(f"seat{k}_coins", p.coins if p else 0, MANY)
        features.number(f"seat{k}_points", p.points if p else 0, MANY)
        features.numbers(f"seat{k}_levels", (p.levels[x] for x in PEOPLES) if p else (), len(PEOPLES), MANY)
        features.counts(f"seat{k}_hand", p.hand if p else (), SPELL_IDS)
        features.number(f"seat{k}_hand_count", p.hand_count if p else 0, len(SPELLS))
        features.counts(f"seat{k}_cast", p.cast if p else (), SPELL_IDS)
        features.number(f"seat{k}_sold_count", p.sold_count if p else 0, len(SPELLS))
        features.counts(f"seat{k}_favours", p.favours if p else (), FAVOUR_IDS)
        features.counts(f"seat{k}_used_favours", p.used_favours if p else (), FAVOUR_IDS)
        features.number(f"seat{k}_privileges", p.privileges if p else 0, MANY)
        features.counts(f"seat{k}_customers", p.customers if p else (), CUSTOMER_IDS)
        features.counts(f"seat{k}_scorings", p.scorings if p else (), SCORINGS)
    features.counts("row", view.row, CUSTOMER_IDS)
    features.number("customer_deck", view.customer_deck, len(CUSTOMERS))
    features.number("spell_deck", view.spell_deck, len(SPELLS))
    features.counts("castle", view.castle, FAVOUR_IDS)
    features.number("favour_reserve", view.favour_reserve, len(FAVOURS))
    features.number("privilege_reserve", view.privilege_reserve, MANY)
    features.numbers("guild_supply", (view.guild_supply.get(g, 0) for g in GUILDS), len(GUILDS), MANY)
    features.numbers("tiles", (view.tiles.get(x, 0) for x in PEOPLES), len(PEOPLES), MANY)
    turn = view.turn
    features.number("turn", turn is not None, 1)
    flags("turn_seat", [turn.seat] if turn else ())
    features.one_hot("turn_step", turn.step if turn else "pick", STEPS)
    features.counts("turn_card", [turn.card] if turn else (), CUSTOMER_IDS)
    features.one_hot("turn_people", turn.people if turn else "", PEOPLE)
    features.counts("turn_guilds", turn.guilds if turn else (), SYMBOLS, TABLES)
    features.one_hot("turn_tavern", turn.tavern if turn else "", ("", *TAVERNS))
    features.number("spells_allowed", turn.spells_allowed if turn else 0, MANY)
    features.number("spells_cast", turn.spells_cast if turn else 0, MANY)
    features.counts("turn_dignitaries", turn.dignitaries if turn else (), DIGNITARY_IDS)
    features.counts("turn_favour_kinds", turn.favours if turn else (), FAVOUR_KINDS, MANY)
    flags("prompt_asks", turn.responders if turn else ())
    flags("window_asks", turn.window_seats if turn else ())
    flags("waiting_for", view.waiting_for)
    features.number("auto_pass", view.auto_pass, 1)
    features.number("answered", view.answered, 1)
    features.counts("answer", [view.answer.card] if view.answer else (), SPELL_IDS)
    flags("deed_next", view.deed_order[:1])
    flags("royal_next", view.royal_order[:1])
    features.counts("royal_taken", view.royal_taken, SCORINGS)
    features.number("turns_played", view.turns_played, MANY)
    features.number("turns_total", view.turns_total, MANY)
    features.numbers("scores", (view.scores[s] for s in order) if view.scores else (), MAX_SEATS, MANY, low=-MANY)


ENCODING = Encoding(
    actions=LegalSlots(SLOTS, typing.get_args(TavernaCommand), card_slot, len(CARDS)),
    encode=encode,
)
