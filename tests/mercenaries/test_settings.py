"""Every number of seeds/mercenaries/settings.json is read by the rules: changing one changes the events."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from domain.mercenaries import GAME
from domain.mercenaries import events as ev
from domain.mercenaries.commands import ATTACK, DEFENCE, DeclareAttack, SellMercenary, SetPosition
from domain.mercenaries.content import SETTINGS
from domain.mercenaries.state import MORNING
from tests.mercenaries.build import Dice, card, merc, of_type, player, position, refused, send

RULES = Path(__file__).resolve().parents[2] / "domain" / "mercenaries"


def test_the_number_of_dice_is_the_seeds(monkeypatch):
    attack = position(player(0, field=(merc(0, "9"),)), player(1, field=(merc(1, "2"),)))
    events, _ = send(attack, 0, DeclareAttack(attackers=(card(0, "9"),)), Dice(1, 1, 1, 1))
    assert of_type(events, ev.Combat)[0].attack_dice == (1, 1)
    monkeypatch.setitem(SETTINGS, "dice", 3)
    events, _ = send(attack, 0, DeclareAttack(attackers=(card(0, "9"),)), Dice(1, 1, 1, 1, 1, 1))
    combat = of_type(events, ev.Combat)[0]
    assert combat.attack_dice == (1, 1, 1) and combat.attack_strength == 9 + 3
    direct = position(player(0, field=(merc(0, "9"),)), player(1))
    events, _ = send(direct, 0, DeclareAttack(attackers=(card(0, "9"),)), Dice(1, 1, 1))
    assert of_type(events, ev.DirectAttack)[0].damage == 9 - 3


def test_position_changes_per_turn_is_the_seeds(monkeypatch):
    state = position(player(0, field=(merc(0, "7"),)), phase=MORNING)
    _, turned = send(state, 0, SetPosition(card=card(0, "7"), position=DEFENCE))
    assert refused(turned, 0, SetPosition(card=card(0, "7"), position=ATTACK)) == "position_already_set"
    monkeypatch.setitem(SETTINGS, "position_changes_per_turn", 2)
    _, back = send(turned, 0, SetPosition(card=card(0, "7"), position=ATTACK))
    assert back.players[0].field[0].position == ATTACK
    assert refused(back, 0, SetPosition(card=card(0, "7"), position=DEFENCE)) == "position_already_set"


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_no_setting_is_read_by_nothing(name):
    source = "".join(p.read_text() for p in RULES.glob("*.py"))
    assert f'SETTINGS["{name}"]' in source, f"{name} in settings.json is read by no rule"


def test_attack_vs_attack_trash_reading_is_an_option():
    spec = next(s for s in GAME.options if s.name == "ava_trash")
    assert spec.default == "losing_side" and spec.description
    attack = (merc(0, "9"), merc(0, "2"))
    for overall, trashed in ((False, (1, card(1, "5"))), (True, (0, card(0, "2")))):
        state = position(player(0, field=attack), player(1, field=(merc(1, "5"),)), trash_lowest_overall=overall)
        events, _ = send(state, 0, DeclareAttack(attackers=(card(0, "9"), card(0, "2"))), Dice(1, 1, 1, 1))
        combat, gone = of_type(events, ev.Combat)[0], of_type(events, ev.MercenariesTrashed)[0]
        assert combat.loser == 1 and not combat.overrun and (gone.seat, gone.cards[0]) == trashed
    assert GAME.initial(GAME.setup(2, {"ava_trash": "lowest_overall"})).trash_lowest_overall


def test_selling_a_field_mercenary_is_an_option():
    """"Sell 1 mercenary for its Contract value": our reading sells from the hand only; option
    ``sell_from`` = ``hand_or_field`` sells a mercenary on the field too (it goes to the Trash)."""
    spec = next(s for s in GAME.options if s.name == "sell_from")
    assert spec.default == "hand" and spec.description
    elite = card(0, "9")
    state = position(player(0, field=(merc(0, "9"),), gold=50), phase=MORNING)
    assert refused(state, 0, SellMercenary(card=elite)) == "card_not_in_hand"
    wider = replace(state, sell_from_field=True)
    assert SellMercenary(card=elite) in GAME.legal(wider, 0)
    events, after = send(wider, 0, SellMercenary(card=elite))
    assert events == [ev.MercenarySold(seat=0, card=elite, price=6)]
    assert after.players[0].field == () and after.players[0].trash == (elite,) and after.players[0].gold == 56
    assert GAME.initial(GAME.setup(2, {"sell_from": "hand_or_field"})).sell_from_field
