"""What the conformance harness plays: each game with its seat counts and options."""

from __future__ import annotations

from typing import Any, NamedTuple


class Case(NamedTuple):
    game: str
    seats: int
    options: dict[str, Any]
    matches: int


CASES: list[Case] = [
    Case("heros-tavern", 3, {}, 200),
    Case("heros-tavern", 4, {}, 200),
    Case("heros-tavern", 5, {}, 200),
    Case("heros-tavern", 5, {"finite_tokens": True}, 50),  # the box's 50 of each, shared out when short
    Case("heros-tavern", 3, {"zero_entertainment_second": True}, 25),
    Case("heros-tavern", 4, {"staff_copies": "once"}, 25),
    Case("mercenaries", 2, {"best_of": 1}, 200),
    Case("mercenaries", 2, {"best_of": 3}, 200),
    Case("mercenaries", 2, {"best_of": 3, "ava_trash": "lowest_overall"}, 50),
    Case("mercenaries", 2, {"best_of": 3, "sell_from": "hand_or_field"}, 50),
    Case("taverna", 2, {}, 200),
    Case("taverna", 3, {}, 200),
    Case("taverna", 4, {}, 200),
    Case("taverna", 5, {}, 200),
    # the text's readings where a ruling narrows it (seeds/taverna/RULINGS.md 14, 23)
    Case("taverna", 2, {"repeat_favour_kinds": True, "repeat_privilege_right": True}, 25),
    Case("taverna", 4, {"repeat_favour_kinds": True, "repeat_privilege_right": True}, 25),
    # favours on one's own turn only (rules version 2; the default opens favour windows, RULINGS.md 22)
    Case("taverna", 3, {"off_turn_favours": False}, 25),
    Case("taverna", 5, {"notary_second_deed": True}, 25),  # RULINGS.md 16
]

# Tavern Masters: 200+ random matches per mode, seats 1 to 6, with and without Dirty Deeds (fewer
# matches at the larger, slower tables).
TM = "tavern-masters"
TM_MATCHES = {2: 30, 3: 25, 4: 12, 5: 6, 6: 4}  # open trading makes random tables long (RULINGS.md 23)
CASES += [
    Case(TM, seats, {"mode": mode, "dirty_deeds": dd}, matches)
    for mode in ("competitive", "cooperative")
    for seats, matches in TM_MATCHES.items()
    for dd in (False, True)
]
CASES += [Case(TM, 1, {"mode": "solo", "dirty_deeds": dd}, 100) for dd in (False, True)]
CASES += [
    Case(TM, 1, {"mode": "competitive"}, 5),
    Case(TM, 3, {"mode": "cooperative", "challenge": "wasted", "dirty_deeds": True}, 5),
    Case(TM, 2, {"mode": "solo", "challenge": "sloshed"}, 5),
    Case(TM, 4, {"mode": "competitive", "challenge": "hammered", "dirty_deeds": True}, 5),
    Case(TM, 2, {"mode": "competitive", "round_cap": 20}, 10),  # round_cap 0 is not for random bots
    Case(TM, 4, {"mode": "competitive", "draft": "booklet", "dirty_deeds": True}, 10),  # RULINGS.md 5
    # card list 1, kept so that matches created with it replay (seeds/tavern-masters/RULINGS.md 1b)
    Case(TM, 1, {"mode": "solo", "card_list": 1}, 50),
    Case(TM, 3, {"mode": "cooperative", "card_list": 1, "dirty_deeds": True}, 10),
    Case(TM, 4, {"mode": "competitive", "card_list": 1}, 10),
]
