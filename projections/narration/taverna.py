"""Taverna events as sentences, each from the event as the seat sees it."""

from __future__ import annotations

from domain.taverna import events as ev
from projections.content.taverna import PEOPLE_NAMES
from projections.i18n import N_
from projections.narration.names import Names, listing

MOMENTS = {"placement": N_("a customer's placement"), "dignitary": N_("a dignitary's activation")}
WINDOWS = {
    "picked": N_("the card just picked"),
    "placed": N_("the customer just placed"),
    "ending": N_("the turn's end"),
}
# the reasons the rules give a Gained event (domain/taverna/), and the two they spell out with a name
REASONS = {
    "income": N_("income"),
    "feast": N_("feast"),
    "extra dignitary": N_("extra dignitary"),
    "gobtrotter": N_("Gob'Trotter"),
    "royal favour": N_("royal favour"),
    "customer moved in": N_("customer moved in"),
}


def _tavern(n: Names, tavern: str) -> str:
    """A tavern's name (both board sides name a tavern id alike)."""
    return n.card(tavern)


def _reason(n: Names, reason: str) -> str:
    if reason in REASONS:
        return n._(REASONS[reason])
    if reason.startswith("spell "):
        return n._("spell {name}", name=n._(reason.removeprefix("spell ")))
    people = reason.removesuffix(" track")
    if people in PEOPLE_NAMES:
        return n._("{people} track", people=n._(PEOPLE_NAMES[people]))
    return reason


def _gained(e: ev.Gained, n: Names) -> str:
    parts = []
    for value, word in ((e.coins, "coins"), (e.points, "points"), (e.privileges, "privileges")):
        if value:
            sign = "+" if value > 0 else ""
            label = {"coins": n.p_("taverna", "coins"), "points": n._("points"), "privileges": n._("privileges")}[word]
            parts.append(f"{sign}{value} {label}")
    return n._(
        "{seat}: {parts} ({reason}).",
        seat=n.seat(e.seat),
        parts=", ".join(parts) or n._("nothing"),
        reason=_reason(n, e.reason),
    )


def _placed(e: ev.CustomerPlaced, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "people": n.term(e.people), "tavern": _tavern(n, e.tavern), "table": e.table + 1}
    text = n._("{seat} seated {people} at {tavern}, table {table}", **params)
    if e.replaced:
        text += n._(", sending away the {people} there", people=n.term(e.replaced))
    return text + (" " + n._("(Influence).") if e.influence else ".")


def _deed(e: ev.DeedBought, n: Names) -> str:
    text = n.n_(
        "{seat} bought a deed of {tavern} for {price} coins ({count} point)",
        "{seat} bought a deed of {tavern} for {price} coins ({count} points)",
        e.points,
        seat=n.seat(e.seat),
        tavern=_tavern(n, e.tavern),
        price=e.price,
    )
    if e.previous >= 0:
        text += n._("; {previous} got {refund} coins back", previous=n.seat(e.previous), refund=e.refund)
    return text + "."


def _activated(e: ev.DignitaryActivated, n: Names) -> str:
    params = {"seat": n.seat(e.seat), "dignitary": n.card(e.dignitary), "tavern": _tavern(n, e.tavern), "cost": e.cost}
    if e.via == "privileges":
        if e.cost:
            return n._(
                "{seat} activated the {dignitary} by discarding privileges for {cost} coins, moving it to {tavern}.",
                **params,
            )
        return n._("{seat} activated the {dignitary} by discarding privileges, moving it to {tavern}.", **params)
    if e.cost:
        return n._(
            "{seat} activated the {dignitary} from the tavern for {cost} coins, moving it to {tavern}.", **params
        )
    return n._("{seat} activated the {dignitary} from the tavern, moving it to {tavern}.", **params)


def _dignitaries(e: ev.DignitariesPlaced, n: Names) -> str:
    places = [n._("{dignitary} at {tavern}", dignitary=n.card(d), tavern=_tavern(n, t)) for d, t in e.places.items()]
    return n._("Dignitaries placed: {places}.", places=", ".join(places))


def _spell(n: Names, card: str) -> str:
    """The spell's name, or "a spell" to a seat that may not see which (a message apart: the
    extractor reads no message inside another's arguments)."""
    return n.card(card, n._("a spell"))


def _responders(e: ev.Responders, n: Names) -> str:
    if not e.seats:
        return n._("No more instant spells: play goes on.")
    moment = n._(MOMENTS[e.moment]) if e.moment in MOMENTS else e.moment
    return n._("{seats} may answer {moment} with an instant spell.", seats=n.seats(e.seats), moment=moment)


def _favour_window(e: ev.FavourWindow, n: Names) -> str:
    if not e.seats:
        return n._("No more royal favours from the other seats: play goes on.")
    moment = n._(WINDOWS[e.moment]) if e.moment in WINDOWS else e.moment
    return n._("{seats} may use royal favours before {moment}.", seats=n.seats(e.seats), moment=moment)


def _people_chosen(e: ev.PeopleChosen, n: Names) -> str:
    params = {"role": n.term(e.role), "people": n.term(e.people)}
    if e.seat >= 0:
        return n._("The {role}'s people: {people} (chosen by {seat}).", seat=n.seat(e.seat), **params)
    return n._("The {role}'s people: {people}.", **params)


def _answered(e: ev.Answered, n: Names) -> str:
    if e.cast is not None:
        return n._("{seat} answered the prompt: cast {card}.", seat=n.seat(e.seat), card=n.card(e.cast.card))
    return n._("{seat} answered the prompt: no instant spell.", seat=n.seat(e.seat))


def _exchanged(e: ev.Exchanged, n: Names) -> str:
    spells = n.n_("{count} spell", "{count} spells", e.spells)
    privileges = n.n_("{count} privilege", "{count} privileges", e.privileges)
    return n._(
        "{seat} exchanged {spells} for coins and {privileges} for points.",
        seat=n.seat(e.seat),
        spells=spells,
        privileges=privileges,
    )


def _over(e: ev.GameOver, n: Names) -> str:
    scores = ", ".join(f"{n.seat(s)} {p}" for s, p in enumerate(e.scores))
    return n._("The match is over ({scores} points). {winners} won.", scores=scores, winners=n.seats(e.winners))


SENTENCES = {
    ev.Shuffled: lambda e, n: n._("The spells, customers and royal favours were shuffled."),
    ev.DignitariesPlaced: _dignitaries,
    ev.FavoursRevealed: lambda e, n: n._(
        "Royal favours revealed at the castle: {favours}.", favours=n.cards(e.favours)
    ),
    ev.CustomersRevealed: lambda e, n: n._("New customers available: {cards}.", cards=n.cards(e.cards)),
    ev.SpellDrawn: lambda e, n: n._("{seat} drew {card}.", seat=n.seat(e.seat), card=_spell(n, e.card)),
    ev.CurseDrawn: lambda e, n: n.n_(
        "{seat} drew the Curse and lost {count} coin.",
        "{seat} drew the Curse and lost {count} coins.",
        e.coins,
        seat=n.seat(e.seat),
    ),
    ev.PeopleChosen: _people_chosen,
    ev.DeedRoundsBegan: lambda e, n: n._("Deed rounds: {seats} in that order, then back.", seats=n.seats(e.order)),
    ev.DeedBought: _deed,
    ev.DeedPassed: lambda e, n: n._("{seat} could buy no deed and passed.", seat=n.seat(e.seat)),
    ev.CustomerPicked: lambda e, n: n._(
        "{seat} picked the {card} card and took a {people} tile.",
        seat=n.seat(e.seat),
        card=n.card(e.card),
        people=n.term(e.people),
    ),
    ev.CardChanged: lambda e, n: n._(
        "{seat} used {favour}: the card now shows {guilds} and {people}.",
        seat=n.seat(e.seat),
        favour=n.card(e.favour),
        guilds=listing(n.t, [n.term(g) for g in e.guilds]),
        people=n.term(e.people),
    ),
    ev.CustomerPlaced: _placed,
    ev.CustomerMoved: lambda e, n: n._(
        "{seat} moved a customer from {tavern} to {to}.",
        seat=n.seat(e.seat),
        tavern=_tavern(n, e.tavern),
        to=_tavern(n, e.to_tavern),
    ),
    ev.LevelGained: lambda e, n: n._(
        "{seat} rose to level {level} on the {people} track.",
        seat=n.seat(e.seat),
        level=e.level,
        people=n.term(e.people),
    ),
    ev.Gained: _gained,
    ev.PrivilegeClaimed: lambda e, n: n._(
        "{seat} took the privilege token of {tavern}.", seat=n.seat(e.seat), tavern=_tavern(n, e.tavern)
    ),
    ev.GuildPlaced: lambda e, n: n._(
        "{seat} placed a {guild} guild token at {tavern}.",
        seat=n.seat(e.seat),
        guild=n.term(e.guild),
        tavern=_tavern(n, e.tavern),
    ),
    ev.FavourTaken: lambda e, n: n._("{seat} took {favour}.", seat=n.seat(e.seat), favour=n.card(e.favour)),
    ev.FavourUsed: lambda e, n: n._("{seat} used {favour}.", seat=n.seat(e.seat), favour=n.card(e.favour)),
    ev.DignitaryActivated: _activated,
    ev.DignitaryMoved: lambda e, n: n._(
        "{seat} moved the {dignitary} to {tavern}.",
        seat=n.seat(e.seat),
        dignitary=n.card(e.dignitary),
        tavern=_tavern(n, e.tavern),
    ),
    ev.SpellCast: lambda e, n: n.n_(
        "{seat} cast {card} for {count} coin.",
        "{seat} cast {card} for {count} coins.",
        e.cost,
        seat=n.seat(e.seat),
        card=n.card(e.card),
    ),
    ev.SpellSold: lambda e, n: n._("{seat} sold {card} face down.", seat=n.seat(e.seat), card=_spell(n, e.card)),
    ev.ExtraSpell: lambda e, n: n._("{seat} may cast a second spell this turn.", seat=n.seat(e.seat)),
    ev.Responders: _responders,
    ev.FavourWindow: _favour_window,
    ev.WindowPassed: lambda e, n: n._("{seat} uses no more royal favours now.", seat=n.seat(e.seat)),
    ev.Answered: _answered,  # its seat alone reads it
    ev.AutoPassSet: lambda e, n: (
        n._("{seat} turned always-pass on.", seat=n.seat(e.seat))
        if e.on
        else n._("{seat} turned always-pass off.", seat=n.seat(e.seat))
    ),  # likewise
    ev.TurnEnded: lambda e, n: n._("{seat} ended their turn.", seat=n.seat(e.seat)),
    ev.Exchanged: _exchanged,
    ev.RoyalOrder: lambda e, n: n._("Royal scoring order: {seats}.", seats=n.seats(e.order)),
    ev.ScoringChosen: lambda e, n: n.n_(
        "{seat} chose the {option} scoring: {count} point.",
        "{seat} chose the {option} scoring: {count} points.",
        e.points,
        seat=n.seat(e.seat),
        option=n.term(e.option),
    ),
    ev.PeopleScored: lambda e, n: n._(
        "{seat}'s people tracks scored {points} points.", seat=n.seat(e.seat), points=sum(e.points)
    ),
    ev.GameOver: _over,
}
