"""Tavernkeepers and Mercenaries events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.mercenaries import events as ev
from projections.content.mercenaries import card_name
from projections.narration.names import Names, amount, listing

KINDS = {"attack_vs_attack": "attack against attack", "attack_vs_defence": "attack against defence",
         "attack_vs_mixed": "attack against a mixed line"}
WINS = {"hp": "on HP", "gold": "on Gold, both having fallen", "both_fell_roll": "on a roll-off, both having fallen",
        "deck_out": "the other's deck ran out"}


def _cards(cards: tuple[str, ...]) -> str:
    return listing([card_name(c) for c in cards]) or "nothing"


def _dice(dice: tuple[int, int]) -> str:
    return f"{dice[0]}+{dice[1]}"


def _combat(e: ev.Combat, n: Names) -> str:
    head = (f"Combat, {KINDS.get(e.kind, e.kind)}: {n.seat(e.attacker)} rolled {_dice(e.attack_dice)} for "
            f"strength {e.attack_strength}, {n.seat(e.defender)} rolled {_dice(e.defence_dice)} for "
            f"{e.defence_strength}.")
    if e.loser < 0:
        return head + " A stand-off."
    return head + f" {n.seat(e.loser)} lost {e.damage} HP" + (", overrun." if e.overrun else ".")


def _won(e: ev.GameWon, n: Names) -> str:
    why = WINS.get(e.reason, e.reason.replace("_", " "))
    rolls = f" (roll-off {', '.join(f'{a} to {b}' for a, b in e.tiebreak_rolls)})" if e.tiebreak_rolls else ""
    return f"{n.seat(e.winner)} won game {e.number}: {why}{rolls}."


SENTENCES = {
    ev.StartingRoll: lambda e, n: "Starting roll: " + "; ".join(f"{a} to {b}" for a, b in e.rolls)
    + f". {n.seat(e.first)} goes first.",
    ev.GameBegan: lambda e, n: f"Game {e.number} began; {n.seat(e.first)} goes first.",
    ev.DeckShuffled: lambda e, n: f"{n.seat(e.seat)} shuffled {amount(e.count, 'card')} into their deck.",
    ev.CardsDrawn: lambda e, n: f"{n.seat(e.seat)} drew "
    + (_cards(e.cards) if e.cards else amount(e.count, "card")) + ".",
    ev.TurnBegan: lambda e, n: f"Turn {e.turn}: {n.seat(e.seat)} to play.",
    ev.IncomeTaken: lambda e, n: f"{n.seat(e.seat)} took {e.amount} Gold from the treasury.",
    ev.Contracted: lambda e, n: f"{n.seat(e.seat)} contracted the {card_name(e.card)} in {n.term(e.position)} "
    f"for {e.cost} Gold" + (f", sacrificing {_cards(e.sacrifices)}." if e.sacrifices else "."),
    ev.MercenarySold: lambda e, n: f"{n.seat(e.seat)} sold the {card_name(e.card)} for {e.price} Gold.",
    ev.PositionSet: lambda e, n: f"{n.seat(e.seat)} put the {card_name(e.card)} in {n.term(e.position)}.",
    ev.AllInDeclared: lambda e, n: f"{n.seat(e.seat)} went All In: gave {e.donated} Gold to the treasury and "
    f"lost {e.hp_lost} HP.",
    ev.PhaseBegan: lambda e, n: f"{n.term(e.phase)} of {n.seat(e.seat)}.",
    ev.AttackDeclared: lambda e, n: f"{n.seat(e.seat)} attacked with {_cards(e.attackers)}.",
    ev.Combat: _combat,
    ev.DirectAttack: lambda e, n: f"Direct attack: {n.seat(e.attacker)}'s Swords {e.swords} against "
    f"{n.seat(e.defender)}'s roll {_dice(e.defence_dice)}: {e.damage} damage.",
    ev.MercenariesTrashed: lambda e, n: f"{n.seat(e.seat)} lost {_cards(e.cards)} to the Trash"
    + (" (overrun)." if e.reason == "overrun" else "."),
    ev.DiscardChoiceAwaited: lambda e, n: f"{n.seat(e.seat)} must choose which mercenary to lose: "
    f"{_cards(e.candidates)}.",
    ev.WagesPaid: lambda e, n: f"{n.seat(e.seat)} paid {e.amount} Gold in wages.",
    ev.WagesWaived: lambda e, n: f"{n.seat(e.seat)} pays no wages tonight (All In).",
    ev.MercenaryDismissed: lambda e, n: f"{n.seat(e.seat)} dismissed the {card_name(e.card)}.",
    ev.GameWon: _won,
    ev.MatchWon: lambda e, n: f"{n.seat(e.winner)} won the match.",
}
