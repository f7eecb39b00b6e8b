"""The greedy bot: from its view alone, values every legal command in points and plays the best one
(ending the turn when nothing is worth more than nothing). A coin is worth a little under half a point."""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Command, Rng
from domain.taverna import commands as c
from domain.taverna.content import BONUS, CUSTOMERS, FAVOURS, PEOPLES, SPELLS, TOP, TRACKS
from domain.taverna.dignitaries import AMBASSADOR, GOBTROTTER, PRINCESS
from domain.taverna.scoring import bracket
from domain.taverna.views import PlayerView, TavernaView, TavernView

COIN = 0.4
SPELL = 1.5  # a spell in hand: its effect, and a step towards the Archmage
FAVOUR = 1.5
PRIVILEGE = 1.0


class GreedyBot:
    def choose(self, view: TavernaView, legal: Sequence[Command], rng: Rng) -> Command:
        assert view.seat is not None
        me = view.players[view.seat]
        return max(legal, key=lambda command: value(view, me, command))


def bonus_value(bonus: dict[str, int]) -> float:
    return (
        bonus.get("points", 0)
        + COIN * bonus.get("coins", 0)
        + SPELL * bonus.get("spell", 0)
        + PRIVILEGE * bonus.get("privilege", 0)
    )


def level_value(view: TavernaView, me: PlayerView, people: str, steps: int = 1) -> float:
    """The people-scoring gain of ``steps`` levels plus their bonuses (nothing when the top is taken)."""
    now = me.levels[people]
    target = now + steps
    if target > TOP or (target == TOP and any(p.levels[people] == TOP for p in view.players if p.seat != me.seat)):
        return -1.0
    gain = TRACKS.scores[target] - TRACKS.scores[now]
    return gain + sum(bonus_value(BONUS[people].get(lv, {})) for lv in range(now + 1, target + 1))


def _tavern(view: TavernaView, tavern: str) -> TavernView:
    return next(t for t in view.taverns if t.id == tavern)


def place_value(
    view: TavernaView, me: PlayerView, people: str, guilds: tuple[str, ...], tavern: str, table: int
) -> float:
    t = _tavern(view, tavern)
    income = 3 if len(view.players) <= 3 else 2
    replaced = t.customers[table]
    value = 0.0
    if replaced:
        value += level_value(view, me, replaced)
    elif t.tables[table] == people:
        value += level_value(view, me, people)
    if not replaced and sum(1 for p in t.customers if not p) == 1 and t.privilege:
        value += PRIVILEGE
    owners = [d.owner for d in t.deeds if d.owner >= 0]
    value += COIN * income * (owners.count(me.seat) - 0.5 * (len(owners) - owners.count(me.seat)))
    both = set(guilds) & set(t.symbols)
    value += COIN * income * ("beer" in both) + SPELL * ("book" in both) + 1.0 * ("lyre" in both)
    value += 0.5 * sum(1 for d in t.dignitaries)  # a dignitary here may be activated
    return value


def best_placement(view: TavernaView, me: PlayerView, people: str, guilds: tuple[str, ...]) -> float:
    trickery = "mask" in guilds
    return max(
        place_value(view, me, people, guilds, t.id, i)
        for t in view.taverns
        for i, occupant in enumerate(t.customers)
        if trickery or not occupant
    )


def effect_value(view: TavernaView, me: PlayerView, command: c.CastSpell) -> float:
    total = 1.0  # a cast spell counts for the Archmage
    for effect in SPELLS[command.card].effects:
        kind, n = effect.kind, effect.amount
        total += {
            "coins": COIN * n,
            "points": n,
            "privilege": PRIVILEGE,
            "draw": SPELL * n,
            "favour": FAVOUR,
            "guild": 0.3,
            "move_dignitary": 0.0,
            "tax": COIN * (len(view.players) - 1),
            "income": COIN * 3,
            "owner_income": COIN * 3,
        }.get(kind, 0.0)
        if kind == "level":
            total += level_value(view, me, effect.people or command.people)
    return total - COIN * SPELLS[command.card].cost


def dignitary_value(view: TavernaView, me: PlayerView, command: c.ActivateDignitary) -> float:
    if command.dignitary == "notary":
        deed = _tavern(view, command.tavern).deeds[command.space]
        cost = deed.price + (3 if deed.owner >= 0 else 0)
        return deed.points + 3.0 - COIN * cost
    if command.dignitary == "gobtrotter":
        cost, points = GOBTROTTER[len(command.guilds)]
        return points - COIN * cost
    if command.dignitary == "princess":
        return FAVOUR * len(command.favours) - COIN * PRINCESS[len(command.favours)]
    steps = {p: command.peoples.count(p) for p in set(command.peoples)}
    return sum(level_value(view, me, p, n) for p, n in steps.items()) - COIN * AMBASSADOR[len(command.peoples)]


def favour_value(view: TavernaView, me: PlayerView, command: c.UseFavour) -> float:
    kind, turn = FAVOURS[command.favour].kind, view.turn
    assert turn is not None
    if kind in ("change_guild", "add_guild", "other_people"):
        if kind == "other_people":
            people, guilds = command.people, turn.guilds
        elif kind == "add_guild":
            people, guilds = turn.people, (*turn.guilds, FAVOURS[command.favour].guild)
        else:
            people = turn.people
            guilds = tuple(command.guild if g == command.from_guild else g for g in turn.guilds)
        return best_placement(view, me, people, guilds) - best_placement(view, me, turn.people, turn.guilds) - 0.5
    if kind == "level":
        return level_value(view, me, command.people)
    if kind == "guild_token":
        return 3.0
    if kind == "second_spell":
        return 0.5
    to = _tavern(view, command.to_tavern)
    people = _tavern(view, command.tavern).customers[command.table]
    return level_value(view, me, people) - 0.5 if to.tables[command.to_table] == people else -1.0


def scoring_value(view: TavernaView, me: PlayerView, option: str) -> float:
    if option == "king":
        return 5 + sum(
            max(0.0, level_value(view, me, p) - bonus_value(BONUS[p].get(me.levels[p] + 1, {}))) for p in PEOPLES
        )
    count = {
        "queen": len(me.favours) + len(me.used_favours),
        "coins": me.coins,
        "archduke": sum(1 for t in view.taverns for d in t.deeds if d.owner == me.seat),
        "archmage": len(me.cast),
    }[option]
    return bracket(option, count)


def value(view: TavernaView, me: PlayerView, command: Command) -> float:
    if isinstance(command, c.PickCustomer):
        return best_placement(view, me, command.people, CUSTOMERS[command.card].guilds)
    if isinstance(command, c.PlaceCustomer):
        assert view.turn is not None
        return place_value(view, me, view.turn.people, view.turn.guilds, command.tavern, command.table)
    if isinstance(command, c.BuyDeed):
        t = _tavern(view, command.tavern)
        deed = t.deeds[command.space]
        return deed.points + 0.3 * len(t.tables) - COIN * deed.price
    if isinstance(command, c.ActivateDignitary):
        return dignitary_value(view, me, command)
    if isinstance(command, c.CastSpell):
        return effect_value(view, me, command)
    if isinstance(command, c.UseFavour):
        return favour_value(view, me, command)
    if isinstance(command, c.ChooseScoring):
        return scoring_value(view, me, command.option)
    if isinstance(command, c.SellSpell):
        return -0.1
    return 0.0  # end the turn, pass, choose a people: the baseline


__all__ = ["GreedyBot", "value"]
