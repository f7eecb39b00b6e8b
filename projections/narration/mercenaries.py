"""Tavernkeepers and Mercenaries events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.mercenaries import events as ev
from projections.content.mercenaries import card_name
from projections.i18n import N_
from projections.narration.names import Names, listing

KINDS = {
    "attack_vs_attack": N_("attack against attack"),
    "attack_vs_defence": N_("attack against defence"),
    "attack_vs_mixed": N_("attack against a mixed line"),
}
WINS = {
    "hp": N_("on HP"),
    "gold": N_("on Gold, both having fallen"),
    "both_fell_roll": N_("on a roll-off, both having fallen"),
    "deck_out": N_("the other's deck ran out"),
}


def _cards(n: Names, cards: tuple[str, ...]) -> str:
    return listing(n.t, [card_name(c, n.t) for c in cards]) or n._("nothing")


def _dice(dice: tuple[int, ...]) -> str:
    return f"{dice[0]}+{dice[1]}"


def _combat(e: ev.Combat, n: Names) -> str:
    head = n._(
        "Combat, {kind}: {attacker} rolled {attack_dice} for strength {attack}, {defender} rolled "
        "{defence_dice} for {defence}.",
        kind=n._(KINDS[e.kind]) if e.kind in KINDS else e.kind,
        attacker=n.seat(e.attacker),
        attack_dice=_dice(e.attack_dice),
        attack=e.attack_strength,
        defender=n.seat(e.defender),
        defence_dice=_dice(e.defence_dice),
        defence=e.defence_strength,
    )
    if e.loser < 0:
        return head + " " + n._("A stand-off.")
    if e.overrun:
        return head + " " + n._("{loser} lost {damage} HP, overrun.", loser=n.seat(e.loser), damage=e.damage)
    return head + " " + n._("{loser} lost {damage} HP.", loser=n.seat(e.loser), damage=e.damage)


def _won(e: ev.GameWon, n: Names) -> str:
    why = n._(WINS[e.reason]) if e.reason in WINS else e.reason.replace("_", " ")
    text = n._("{winner} won game {number}: {why}", winner=n.seat(e.winner), number=e.number, why=why)
    if e.tiebreak_rolls:
        rolls = ", ".join(n._("{a} to {b}", a=a, b=b) for a, b in e.tiebreak_rolls)
        text += " " + n._("(roll-off {rolls})", rolls=rolls)
    return text + "."


def _contracted(e: ev.Contracted, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "card": card_name(e.card, n.t), "position": n.term(e.position), "cost": e.cost}
    if e.sacrifices:
        return n._(
            "{seat} contracted the {card} in {position} for {cost} Gold, sacrificing {sacrifices}.",
            sacrifices=_cards(n, e.sacrifices),
            **params,
        )
    return n._("{seat} contracted the {card} in {position} for {cost} Gold.", **params)


SENTENCES = {
    ev.StartingRoll: lambda e, n: n._(
        "Starting roll: {rolls}. {first} goes first.",
        rolls="; ".join(n._("{a} to {b}", a=a, b=b) for a, b in e.rolls),
        first=n.seat(e.first),
    ),
    ev.GameBegan: lambda e, n: n._("Game {number} began; {first} goes first.", number=e.number, first=n.seat(e.first)),
    ev.DeckShuffled: lambda e, n: n.n_(
        "{seat} shuffled {count} card into their deck.",
        "{seat} shuffled {count} cards into their deck.",
        e.count,
        seat=n.seat(e.seat),
    ),
    ev.CardsDrawn: lambda e, n: (
        n._("{seat} drew {cards}.", seat=n.seat(e.seat), cards=_cards(n, e.cards))
        if e.cards
        else n.n_("{seat} drew {count} card.", "{seat} drew {count} cards.", e.count, seat=n.seat(e.seat))
    ),
    ev.TurnBegan: lambda e, n: n._("Turn {turn}: {seat} to play.", turn=e.turn, seat=n.seat(e.seat)),
    ev.IncomeTaken: lambda e, n: n._(
        "{seat} took {amount} Gold from the treasury.", seat=n.seat(e.seat), amount=e.amount
    ),
    ev.Contracted: _contracted,
    ev.MercenarySold: lambda e, n: n._(
        "{seat} sold the {card} for {price} Gold.", seat=n.seat(e.seat), card=card_name(e.card, n.t), price=e.price
    ),
    ev.PositionSet: lambda e, n: n._(
        "{seat} put the {card} in {position}.",
        seat=n.seat(e.seat),
        card=card_name(e.card, n.t),
        position=n.term(e.position),
    ),
    ev.AllInDeclared: lambda e, n: n._(
        "{seat} went All In: gave {gold} Gold to the treasury and lost {hp} HP.",
        seat=n.seat(e.seat),
        gold=e.donated,
        hp=e.hp_lost,
    ),
    ev.PhaseBegan: lambda e, n: n._("{phase} of {seat}.", phase=n.term(e.phase), seat=n.seat(e.seat)),
    ev.AttackDeclared: lambda e, n: n._(
        "{seat} attacked with {cards}.", seat=n.seat(e.seat), cards=_cards(n, e.attackers)
    ),
    ev.Combat: _combat,
    ev.DirectAttack: lambda e, n: n._(
        "Direct attack: {attacker}'s Swords {swords} against {defender}'s roll {dice}: {damage} damage.",
        attacker=n.seat(e.attacker),
        swords=e.swords,
        defender=n.seat(e.defender),
        dice=_dice(e.defence_dice),
        damage=e.damage,
    ),
    ev.MercenariesTrashed: lambda e, n: (
        n._("{seat} lost {cards} to the Trash (overrun).", seat=n.seat(e.seat), cards=_cards(n, e.cards))
        if e.reason == "overrun"
        else n._("{seat} lost {cards} to the Trash.", seat=n.seat(e.seat), cards=_cards(n, e.cards))
    ),
    ev.DiscardChoiceAwaited: lambda e, n: n._(
        "{seat} must choose which mercenary to lose: {cards}.", seat=n.seat(e.seat), cards=_cards(n, e.candidates)
    ),
    ev.WagesPaid: lambda e, n: n._("{seat} paid {amount} Gold in wages.", seat=n.seat(e.seat), amount=e.amount),
    ev.WagesWaived: lambda e, n: n._("{seat} pays no wages tonight (All In).", seat=n.seat(e.seat)),
    ev.MercenaryDismissed: lambda e, n: n._(
        "{seat} dismissed the {card}.", seat=n.seat(e.seat), card=card_name(e.card, n.t)
    ),
    ev.GameWon: _won,
    ev.MatchWon: lambda e, n: n._("{winner} won the match.", winner=n.seat(e.winner)),
}
