"""Both seats' views (and a spectator's) keep the game's last combat: dice, strengths, damage and
the mercenaries each side lost, from the events that told it."""

from __future__ import annotations

from domain.bots.random_bot import RandomBot
from domain.kernel import Table, bot_turn
from domain.mercenaries import GAME
from domain.mercenaries import events as ev


def test_every_view_keeps_the_last_combat_with_its_losses():
    setup = GAME.setup(2, {"best_of": 1})
    fights = 0
    for seed in ("combat-a", "combat-b", "combat-c"):
        table, bots, seen = Table(GAME, setup, seed), [RandomBot(), RandomBot()], 0
        fight, trashed = None, [(), ()]
        while not table.finished:
            table.submit(*bot_turn(table, bots))
            for event in table.events[seen:]:
                if isinstance(event, ev.Combat | ev.DirectAttack):
                    fight, trashed, fights = event, [(), ()], fights + 1
                elif isinstance(event, ev.MercenariesTrashed):
                    trashed[event.seat] = (*trashed[event.seat], *event.cards)
                elif isinstance(event, ev.GameBegan):
                    fight = None
                elif isinstance(event, ev.AllInDeclared):  # the Trash goes back into the deck: hidden
                    trashed[event.seat] = ()
            seen = len(table.events)
            views = [GAME.view(table.state, seat) for seat in (0, 1, None)]
            assert views[0].last_combat == views[1].last_combat == views[2].last_combat
            shown = views[0].last_combat
            if fight is None:
                assert shown is None
                continue
            assert shown is not None and (shown.attacker, shown.defender) == (fight.attacker, fight.defender)
            assert shown.damage == fight.damage and shown.defence_dice == fight.defence_dice
            assert shown.trashed == tuple(trashed)
            if isinstance(fight, ev.Combat):
                assert (shown.attack_dice, shown.loser) == (fight.attack_dice, fight.loser)
                assert shown.overrun == fight.overrun
                assert (shown.attack_strength, shown.defence_strength) == (fight.attack_strength,
                                                                           fight.defence_strength)
            else:
                assert shown.kind == "direct" and shown.attack_strength == fight.swords
    assert fights
