"""The effect vocabulary, card by card."""

from __future__ import annotations

from domain.kernel import Rng
from domain.tavern_masters.builder import Builder
from domain.tavern_masters.content import Effect
from domain.tavern_masters.effects import (
    allows_nobles,
    hires_free,
    resolve,
    stays,
    targets,
    wants_met,
)
from domain.tavern_masters.till import card_income, till_income
from tests.tavern_masters.helpers import make


def test_patrons_earn_one_gold_and_nobles_two():
    # TM-T1: an Ale Patron, an Any Drink Patron and a Noble, no bonus effects: +4
    assert till_income(("dwarven-ale-1", "thirsty-farmer-1", "weary-pilgrim-1", "baroness-1")) == 4


def test_income_effects():
    assert card_income("dragonfire-brandy-1", ()) == 1  # income 1
    # Master Brewer: +1 for ANY (each) other Ale
    assert card_income("master-brewer-1", ("master-brewer-1", "dwarven-ale-1", "pale-ale-1", "honey-mead-1")) == 2
    # Roast Boar: +1 if ANY ONE Hunter, however many
    assert card_income("roast-boar-1", ("roast-boar-1", "trapper-1", "trapper-2")) == 1
    assert card_income("roast-boar-1", ("roast-boar-1",)) == 0
    assert card_income("duke-of-redstaff-1", ()) == 3  # a Noble (2) with income 1


def test_free_hire_with_the_named_card():
    assert hires_free("elven-barmaid-1", ("aged-cheese-1",))
    assert hires_free("elven-barmaid-1", ("fondue-pot-1",))
    assert not hires_free("elven-barmaid-1", ("meat-pie-1",))
    assert not hires_free("serving-wench-1", ("aged-cheese-1",))  # no hire condition
    assert not hires_free("aged-cheese-2", ("aged-cheese-1",))  # Goods are always bought


def test_wants_and_nobles():
    assert wants_met("thirsty-farmer-1", ("dwarven-ale-1",))
    assert not wants_met("thirsty-farmer-1", ("elven-wine-1",))
    assert wants_met("weary-pilgrim-1", ("elven-wine-1",)) and wants_met("weary-pilgrim-1", ("grog-1",))
    assert wants_met("sailor-on-leave-1", ("grog-1",))
    assert not wants_met("baroness-1", ("elven-wine-1",))
    assert wants_met("baroness-1", ("elven-wine-1", "silver-goblets-1"))
    assert allows_nobles(("retired-knight-1",)) and not allows_nobles(("town-guard-1",))


def test_likes_count_anything_seen_this_round_but_not_itself():
    assert stays("off-duty-soldier-1", ("off-duty-soldier-1", "elven-barmaid-1"))  # likes Wenches
    assert not stays("off-duty-soldier-1", ("off-duty-soldier-1", "dwarven-ale-1"))
    assert not stays("weary-pilgrim-1", ("weary-pilgrim-1", "elven-barmaid-1"))  # likes nothing
    assert not stays("apprentice-mage-1", ("apprentice-mage-1",))  # a Mage who likes Mages: not itself


def run(state, seat, effect, target=-1, target_card="", own_card=""):
    b = Builder(state)
    resolve(b, seat, effect, target, target_card, own_card, Rng("fx", 0))
    return b.state


def test_gain_and_steal_gold():
    state = make(players=[{"gold": 3}, {"gold": 1}], phase="deeds")
    after = run(state, 0, Effect(op="gain_gold", amount=2))
    assert after.players[0].gold == 5
    after = run(state, 0, Effect(op="steal_gold", amount=2), target=1)
    assert (after.players[0].gold, after.players[1].gold) == (4, 0)  # only what they have


def test_steal_and_discard_from_hand():
    state = make(players=[{}, {"hand": ("meat-pie-1",)}], phase="deeds")
    after = run(state, 0, Effect(op="steal_hand"), target=1)
    assert after.players[0].hand == ("meat-pie-1",) and after.players[1].hand == ()
    after = run(state, 0, Effect(op="discard_hand"), target=1)
    assert after.discards["tavern"] == ("meat-pie-1",)


def test_tavern_card_deeds():
    state = make(players=[{"tavern": ("dice-table-1",)}, {"tavern": ("meat-pie-1", "barbarian-1")}], phase="deeds")
    stolen = run(state, 0, Effect(op="steal_card"), 1, "meat-pie-1")
    assert stolen.players[0].tavern == ("dice-table-1", "meat-pie-1")  # stays in play, changes Tavern
    gone = run(state, 0, Effect(op="remove_card"), 1, "meat-pie-1")
    assert gone.removed == ("meat-pie-1",) and "meat-pie-1" not in gone.discards["tavern"]
    lured = run(state, 0, Effect(op="steal_patron"), 1, "barbarian-1")
    assert "barbarian-1" in lured.players[0].tavern
    brawl = run(state, 0, Effect(op="discard_patron"), 1, "barbarian-1")
    assert brawl.discards["patron"] == ("barbarian-1",)


def test_switch_with_swaps_the_two_cards_places():
    state = make(players=[{"tavern": ("dice-table-1",)}, {"tavern": ("meat-pie-1",)}], phase="deeds")
    after = run(state, 0, Effect(op="switch"), 1, "meat-pie-1", "dice-table-1")
    assert after.players[0].tavern == ("meat-pie-1",) and after.players[1].tavern == ("dice-table-1",)


def test_any_means_all_of_them():
    tavern = ("dwarven-ale-1", "thirsty-farmer-1", "dock-worker-1", "weary-pilgrim-1")
    state = make(players=[{}, {"tavern": tavern}], phase="deeds")
    after = run(state, 0, Effect(op="discard_patrons", term="Ale"), target=1)
    assert after.players[1].tavern == ("dwarven-ale-1", "weary-pilgrim-1")  # the Any Drink Patron stays


def test_draw_tavern_takes_from_the_deck():
    state = make(phase="deeds")
    top = state.decks["tavern"][:2]
    assert run(state, 0, Effect(op="draw_tavern", amount=2)).players[0].hand == top


def test_targets_by_kind():
    state = make(seats=3, players=[{"tavern": ("dice-table-1",)}, {"tavern": ("meat-pie-1", "barbarian-1")}])
    assert list(targets(state, 0, Effect(op="gain_gold", amount=1))) == [(-1, "", "")]
    assert list(targets(state, 0, Effect(op="steal_gold", amount=1))) == [(1, "", ""), (2, "", "")]
    assert list(targets(state, 0, Effect(op="discard_patron"))) == [(1, "barbarian-1", "")]
    assert list(targets(state, 0, Effect(op="steal_card"))) == [(1, "meat-pie-1", "")]
    assert list(targets(state, 0, Effect(op="switch"))) == [(1, "meat-pie-1", "dice-table-1")]
