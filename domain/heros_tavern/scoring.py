"""The rulebook's Score and Award Resources phases: one function per category and staff card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.heros_tavern.content import DECK, Tokens
from domain.heros_tavern.events import ScoreRow

# Market heroes, and the coins/storage/land of Games/Barrel/Tools, for 0, 1, 2, 3, 4, 5+ cards
PROGRESSION = (0, 1, 3, 5, 7, 10)
SHOPKEEPER_CAP = 6  # the reference card's "Staff 1 to 6", used only with the shopkeeper_cap option


def progression(count: int) -> int:
    return PROGRESSION[min(count, 5)]


def entertainment(counts: Sequence[int], zero_second: bool = False) -> tuple[int, ...]:
    """Most: 6, split on a tie with no second place; second-most: 3, split. Seats with none
    take no place (HT-3), unless ``zero_second`` (option): then seats with none may share second;
    splits drop the remainder."""
    most = max(counts, default=0)
    if most == 0:
        return tuple(0 for _ in counts)
    leaders = counts.count(most)
    if leaders > 1:
        return tuple(6 // leaders if c == most else 0 for c in counts)
    second = max((c for c in counts if c < most), default=0)
    placed = bool(second) or zero_second
    runners = counts.count(second) if placed else 0
    return tuple(6 if c == most else 3 // runners if placed and c == second else 0 for c in counts)


def food(foods: int) -> int:
    return 10 * (foods // 3)


def ale_pairs(light: int, dark: int) -> tuple[int, int]:
    """(mixed pairs, same-kind pairs): as many mixed pairs as possible, then pairs of the rest,
    which gives the best score (HT-6)."""
    mixed = min(light, dark)
    return mixed, (light - mixed) // 2 + (dark - mixed) // 2


def ale(light: int, dark: int) -> int:
    mixed, same = ale_pairs(light, dark)
    return 10 * mixed + 3 * same


def lodging(rooms: int) -> int:
    return 2 * rooms


def market(markets: int) -> int:
    return progression(markets)


def jester(shows: int) -> int:
    return 1 if shows == 0 else 2 if shows < 3 else 4 if shows < 6 else 6


def cook(foods: int) -> int:
    return 5 * (foods // 3) or 1


def bartender(light: int, dark: int) -> int:
    mixed, same = ale_pairs(light, dark)
    return 5 * mixed + 2 * same or 1


def maid(rooms: int) -> int:
    return (1, 2, 4, 6)[min(rooms, 3)]


def shopkeeper(markets: int, capped: bool = False) -> int:
    return min(markets + 1, SHOPKEEPER_CAP) if capped else markets + 1


def resources(kinds: Counter[str]) -> Tokens:
    """Coins for Games, storage for Barrels, land for Tools."""
    return Tokens(progression(kinds["games"]), progression(kinds["barrel"]), progression(kinds["tools"]))


STAFF = ("jester", "cook", "bartender", "maid", "shopkeeper")


def score_row(kinds: Counter[str], shows: int, capped: bool = False, staff_once: bool = False) -> ScoreRow:
    """One tavern's line on the pad, given the heroes its entertainment won against the others.
    Each staff card scores on its own, so two copies score twice; ``staff_once``: a second copy of a
    staff card adds nothing (the option ``staff_copies``)."""
    if staff_once:
        kinds = kinds.copy()
        kinds.update({kind: min(kinds[kind], 1) - kinds[kind] for kind in STAFF})
    light, dark, rooms, markets, foods = (kinds[k] for k in ("light_ale", "dark_ale", "lodging", "market", "food"))
    parts = {
        "entertainment": shows,
        "food": food(foods),
        "ale": ale(light, dark),
        "lodging": lodging(rooms),
        "market": market(markets),
        "jester": kinds["jester"] * jester(kinds["entertainment"]),
        "cook": kinds["cook"] * cook(foods),
        "bartender": kinds["bartender"] * bartender(light, dark),
        "maid": kinds["maid"] * maid(rooms),
        "shopkeeper": kinds["shopkeeper"] * shopkeeper(markets, capped),
    }
    return ScoreRow(**parts, total=sum(parts.values()))


def kinds_of(cards: Sequence[str]) -> Counter[str]:
    return Counter(DECK[card].kind for card in cards)


def score_taverns(
    taverns: Sequence[Sequence[str]], capped: bool = False, zero_second: bool = False, staff_once: bool = False
) -> tuple[ScoreRow, ...]:
    kinds = [kinds_of(tavern) for tavern in taverns]
    shows = entertainment([k["entertainment"] for k in kinds], zero_second)
    return tuple(score_row(k, s, capped, staff_once) for k, s in zip(kinds, shows, strict=True))


def ranks(totals: Sequence[int], unspent: Sequence[int]) -> tuple[int, ...]:
    """Highest total first; a tie goes to more unspent tokens; a tie on both shares the place."""
    keys = list(zip(totals, unspent, strict=True))
    return tuple(1 + sum(other > key for other in keys) for key in keys)
