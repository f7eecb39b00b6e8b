"""Taverna's content: customer cards, spells, royal favours, both board sides' taverns, the people
tracks and the dignitaries, with texts generated from the seeds/taverna/ data the rules read. Its
French words are the rulebook's (seeds/taverna/RULINGS.md; /shared/rules/taverna.txt is French)."""

from __future__ import annotations

from domain.taverna import dignitaries as dg
from domain.taverna.content import BOARD, CUSTOMERS, FAVOURS, PEOPLES, SPELLS, TRACKS, Effect, Level
from domain.taverna.deck import CURSE_COINS
from domain.taverna.favours import GUILD_TOKEN_POINTS, MOVE_INCOME
from domain.taverna.rules import CASTLE, HAND
from domain.taverna.scoring import BRACKET_POINTS, KING_POINTS, OPTIONS, THRESHOLDS
from projections.content.model import Content, Item, listing
from projections.i18n import N_, Texts, texts

# the breakdown's categories (domain/taverna/breakdown.py): points scored in play, then the End of game's
# steps (the people scoring's, one a people, are named after their people)
SCORING = {"deeds": N_("Property deeds"), "guilds": N_("Guild tokens"), "tracks": N_("People track bonuses"),
           "spells": N_("Spells"), "privileges": N_("Unused privileges"), "royal": N_("Royal scoring")}
PEOPLE_NAMES = {"elf": N_("Elf"), "dwarf": N_("Dwarf"), "orc": N_("Orc"), "human": N_("Human")}
GUILD_NAMES = {"beer": N_("Beer"), "lyre": N_("Lyre"), "book": N_("Spell Book"), "mask": N_("Mask")}
DIGNITARY_NAMES = {
    "notary": N_("Notary"),
    "gobtrotter": N_("Gob'Trotter"),
    "princess": N_("Princess"),
    "ambassador": N_("Ambassador"),
}
ROYAL_NAMES = {
    "king": N_("King"),
    "queen": N_("Queen"),
    "coins": N_("Master of Coins"),
    "archduke": N_("Archduke"),
    "archmage": N_("Archmage"),
}
COLOURS = {"green": N_("green"), "brown": N_("brown"), "red": N_("red"), "blue": N_("blue")}
FAVOUR_NAMES = {
    "change_guild": N_("Change Guild"),
    "add_guild": N_("Add Guild"),
    "other_people": N_("Other People"),
    "guild_token": N_("Guild Token"),
    "second_spell": N_("Second Spell"),
    "level": N_("Level"),
    "move_customer": N_("Move Customer"),
}


def people(t: Texts, word: str) -> str:
    return t._(PEOPLE_NAMES[word])


def guild(t: Texts, word: str) -> str:
    return t._(GUILD_NAMES[word])


def spell_effect(t: Texts, effect: Effect) -> str:
    n, kind = effect.amount, effect.kind
    if kind == "coins":
        return t.n_("Gain {count} coin.", "Gain {count} coins.", n)
    if kind == "points":
        return t.n_("Score {count} point.", "Score {count} points.", n)
    if kind == "income":
        return t._("Gain your income again.")
    if kind == "owner_income":
        return t._("If you own a deed of the tavern where the customer sits, gain your income.")
    if kind == "privilege":
        return t.n_("Take {count} privilege token.", "Take {count} privilege tokens.", n)
    if kind == "draw":
        return t.n_("Draw {count} spell.", "Draw {count} spells.", n)
    if kind == "tax":
        return t.n_(
            "Every opponent gives you {count} coin if they can.",
            "Every opponent gives you {count} coins if they can.",
            n,
        )
    if kind == "level" and effect.people:
        return t.n_(
            "Rise {count} level on the {people} track.",
            "Rise {count} levels on the {people} track.",
            n,
            people=people(t, effect.people),
        )
    if kind == "level":
        return t.n_(
            "Rise {count} level on a people track of your choice.",
            "Rise {count} levels on a people track of your choice.",
            n,
        )
    if kind == "favour":
        return t.n_("Take {count} royal favour from the castle.", "Take {count} royal favours from the castle.", n)
    if kind == "guild":
        return t._("Place a guild token of your choice in a tavern.")
    if kind == "move_dignitary":
        return t._("Move a dignitary to another tavern (without its skill).")
    if kind == "lose_coins":
        return t.n_(
            "Whoever draws it loses {count} coin and draws again.",
            "Whoever draws it loses {count} coins and draws again.",
            n,
        )
    raise ValueError(f"no sentence for spell effect {kind!r}")


def spell_text(spell_id: str, t: Texts | None = None) -> str:
    t = t or texts()
    spell = SPELLS[spell_id]
    if spell.curse:
        return t.n_(
            "The Curse: not a spell. Whoever draws it loses {count} coin and draws again.",
            "The Curse: not a spell. Whoever draws it loses {count} coins and draws again.",
            CURSE_COINS,
        )
    if spell.instant == "placement":
        when = t._("Instant: cast when an opponent places a customer.")
    elif spell.instant == "dignitary":
        when = t._("Instant: cast when an opponent activates a dignitary.")
    else:
        when = t._("Cast on your own turn after placing.")
    cost = t.n_("Costs {count} coin.", "Costs {count} coins.", spell.cost)
    return " ".join([*(spell_effect(t, e) for e in spell.effects), when, cost])


def customer_text(card_id: str, t: Texts | None = None) -> str:
    t = t or texts()
    card = CUSTOMERS[card_id]
    who = listing(t, [people(t, p) for p in card.peoples], "or")
    guilds = listing(t, [guild(t, g) for g in card.guilds])
    if card.players <= 2:
        seats = t._("In the deck with any number of players.")
    else:
        seats = t._("In the deck with {players} or more players.", players=card.players)
    return (
        t._(
            "Take a customer tile ({who}) and seat it at any free table: at a table of its own people's colour "
            "you rise a level on that people's track. Guild symbols: {guilds}.",
            who=who,
            guilds=guilds,
        )
        + " "
        + seats
    )


def favour_text(favour_id: str, t: Texts | None = None) -> str:
    t = t or texts()
    kind = FAVOURS[favour_id].kind
    if kind == "add_guild":
        return t._(
            "Before placing: the card you play also shows the {guild} symbol.", guild=guild(t, FAVOURS[favour_id].guild)
        )
    if kind == "guild_token":
        return t._("Place a guild token in a tavern and score {points} points.", points=GUILD_TOKEN_POINTS)
    if kind == "move_customer":
        return t._("Move a placed customer to a free table of another tavern; gain {coins} coins.", coins=MOVE_INCOME)
    texts_ = {
        "change_guild": N_("Before placing: change one guild symbol of the card you play."),
        "other_people": N_("Before placing: take a customer tile of a people the card does not show."),
        "second_spell": N_("Cast a second spell this turn."),
        "level": N_("Rise one level on a people track of your choice."),
    }
    return t._(texts_[kind])


def bonus_text(t: Texts, level: Level) -> str:
    if not level.bonus:
        return t._("nothing")
    words = {
        "spell": lambda n: t.n_("{count} spell", "{count} spells", n),
        "points": lambda n: t.n_("{count} point", "{count} points", n),
        "coins": lambda n: t.n_("{count} coin", "{count} coins", n),
        "privilege": lambda n: t.n_("{count} privilege token", "{count} privilege tokens", n),
    }
    return listing(t, [words[k](n) for k, n in level.bonus.items()])


def _taverns(t: Texts) -> list[Item]:
    out = []
    for side in BOARD.sides:
        for tavern in side.taverns:
            deeds = "; ".join(
                t.n_("{price} coins for {count} point", "{price} coins for {count} points", d.points, price=d.price)
                for d in tavern.deeds
            )
            tables = listing(t, [f"{tavern.tables.count(p)} {people(t, p)}" for p in PEOPLES if p in tavern.tables])
            size = t._("A small tavern") if tavern.size == "small" else t._("A large tavern")
            text = t.n_(
                "{size} ({side} players) with {count} table: {tables}.",
                "{size} ({side} players) with {count} tables: {tables}.",
                len(tavern.tables),
                size=size,
                side=side.id,
                tables=tables,
            )
            text += " " + t._(
                "Printed guild symbol: {symbols}. Deeds: {deeds}.",
                symbols=listing(t, [guild(t, g) for g in tavern.symbols]),
                deeds=deeds,
            )
            out.append(
                Item(
                    id=f"{side.id}/{tavern.id}",
                    name=t._(tavern.name),
                    category="space",
                    kind="tavern",
                    ids=(tavern.id,),
                    text=text,
                    numbers={
                        "side": side.id,
                        "tables": list(tavern.tables),
                        "symbols": list(tavern.symbols),
                        "deed_prices": [d.price for d in tavern.deeds],
                        "deed_points": [d.points for d in tavern.deeds],
                    },
                )
            )
    return out


def _tracks(t: Texts) -> list[Item]:
    scores = ", ".join(map(str, TRACKS.scores))
    out = []
    for p in TRACKS.peoples:
        bonuses = "; ".join(t._("level {level}: {bonus}", level=lv.level, bonus=bonus_text(t, lv)) for lv in p.bonuses)
        text = t._(
            "The {people} track ({colour} tables). Seating a {people} raises you a level and gives its bonus: "
            "{bonuses}. At the end levels 0 to {top} score {scores}.",
            people=people(t, p.id),
            colour=t._(COLOURS[p.colour]),
            bonuses=bonuses,
            top=len(TRACKS.scores) - 1,
            scores=scores,
        )
        if TRACKS.top_level_unique:
            text += " " + t._("Only the first player to reach the top level may stand there.")
        out.append(
            Item(
                id=p.id,
                name=t._("{people} track", people=people(t, p.id)),
                category="track",
                kind="people",
                ids=(p.id,),
                text=text,
                numbers={"colour": p.colour, "scores": list(TRACKS.scores)},
            )
        )
    return out


def _dignitary_text(t: Texts, dignitary: str) -> str:
    if dignitary == "notary":
        return t._(
            "Buy a deed of the tavern it moves to at its price; an opponent's deed costs {more} more and half "
            "of what you pay goes to them.",
            more=dg.TAKEOVER_SURCHARGE,
        )
    if dignitary == "gobtrotter":
        offers = "; ".join(
            t.n_(
                "{count} token for {coins} coins, {points} points",
                "{count} tokens for {coins} coins, {points} points",
                n,
                coins=c,
                points=p,
            )
            for n, (c, p) in dg.GOBTROTTER.items()
        )
        return t._("Place guild tokens in the tavern it moves to: {offers}.", offers=offers)
    if dignitary == "princess":
        offers = "; ".join(t._("{n} for {coins} coins", n=n, coins=c) for n, c in dg.PRINCESS.items())
        return t._("Take royal favours: {offers}.", offers=offers)
    offers = "; ".join(
        t.n_("{count} level for {coins} coins", "{count} levels for {coins} coins", n, coins=c)
        for n, c in dg.AMBASSADOR.items()
    )
    return t._("Rise on people tracks: {offers}.", offers=offers)


def _dignitaries(t: Texts) -> list[Item]:
    return [
        Item(
            id=d,
            name=t._(name),
            category="tile",
            kind="dignitary",
            ids=(d,),
            text=_dignitary_text(t, d)
            + " "
            + t._("Activate it from your tavern or by discarding {n} privileges.", n=dg.PRIVILEGES_FOR_EXTRA),
        )
        for d, name in DIGNITARY_NAMES.items()
    ]


def royal_text(t: Texts, option: str) -> str:
    if option == "king":
        return t._("King: {points} points", points=KING_POINTS)
    least = THRESHOLDS[option]
    brackets = ", ".join(
        t._("{points} for {n}+", points=pts, n=n) for n, pts in zip(least, BRACKET_POINTS, strict=True)
    )
    return t._("{option}: {brackets}", option=t._(ROYAL_NAMES[option]), brackets=brackets)


def rules(t: Texts) -> tuple[str, ...]:
    return (
        t._("Two to five tavern keepers seat customers of four peoples in five taverns over a fixed number of turns."),
        t._(
            "Setup: each player buys deeds of taverns in two rounds; every player holds {hand} spells; {castle} royal "
            "favours lie face up in the castle.",
            hand=HAND,
            castle=CASTLE,
        ),
        t._(
            "Your turn: pick a customer card from the row and seat its tile at any free table. At a table of the "
            "customer's own colour you rise a level on that people's track and take its bonus (at another, no level); "
            "either way every deed owner of that tavern gains income. Then you may activate dignitaries, cast one "
            "spell, sell spells and use royal favours."
        ),
        t._(
            "End: each player in royal order takes one royal scoring ({scorings}), then the people tracks score. Most "
            "points wins.",
            scorings="; ".join(royal_text(t, o) for o in OPTIONS),
        ),
    )


def customer_name(t: Texts, peoples: tuple[str, ...]) -> str:
    return t._("{people} customer", people=listing(t, [people(t, p) for p in peoples], "or"))


def content(t: Texts) -> Content:
    items = [
        *(
            Item(
                id=c,
                name=customer_name(t, d.peoples),
                category="card",
                kind="customer",
                ids=(c,),
                text=customer_text(c, t),
                numbers={"peoples": list(d.peoples), "guilds": list(d.guilds), "players": d.players},
            )
            for c, d in CUSTOMERS.items()
        ),
        *(
            Item(
                id=s,
                name=t._(d.name),
                category="card",
                kind="curse" if d.curse else "spell",
                ids=(s,),
                text=spell_text(s, t),
                cost={"coins": d.cost} if d.cost else {},
                numbers={"instant": d.instant or ""},
            )
            for s, d in SPELLS.items()
        ),
        *(
            Item(
                id=f,
                name=t._("Royal favour: {kind}", kind=t._(FAVOUR_NAMES[d.kind])),
                category="tile",
                kind="favour",
                ids=(f,),
                text=favour_text(f, t),
                numbers={"guild": d.guild} if d.guild else {},
            )
            for f, d in FAVOURS.items()
        ),
        *_taverns(t),
        *_tracks(t),
        *_dignitaries(t),
    ]
    terms = {
        **{k: people(t, k) for k in PEOPLE_NAMES},
        **{k: guild(t, k) for k in GUILD_NAMES},
        **{k: t._(v) for k, v in DIGNITARY_NAMES.items()},
        "coins": t.p_("taverna", "coins"),
        "points": t._("points"),
        "privileges": t._("privilege tokens"),
        "king": t._("King"),
        "queen": t._("Queen"),
        "archduke": t._("Archduke"),
        "archmage": t._("Archmage"),
    }
    scoring = {category: t._(name) for category, name in SCORING.items()}
    scoring |= {p: t._("People scoring: {people}", people=people(t, p)) for p in PEOPLES}
    return Content(
        game="taverna", language=t.language, name=t._("Taverna"), rules=rules(t), terms=terms, items=tuple(items),
        scoring=scoring,
    )
