"""Taverna's content: customer cards, spells, royal favours, both board sides' taverns, the people
tracks and the dignitaries, with texts generated from the seeds/taverna/ data the rules read."""

from __future__ import annotations

from domain.taverna import dignitaries as dg
from domain.taverna.content import BOARD, CUSTOMERS, FAVOURS, PEOPLES, SPELLS, TRACKS, Effect, Level
from domain.taverna.deck import CURSE_COINS
from domain.taverna.favours import GUILD_TOKEN_POINTS, MOVE_INCOME
from domain.taverna.rules import CASTLE, HAND
from domain.taverna.scoring import BRACKET_POINTS, KING_POINTS, OPTIONS, THRESHOLDS
from projections.content.model import Content, Item, amount, article, listing, title

PEOPLE_NAMES = {"elf": "Elf", "dwarf": "Dwarf", "orc": "Orc", "human": "Human"}
GUILD_NAMES = {"beer": "Beer", "lyre": "Lyre", "book": "Spell Book", "mask": "Mask"}
DIGNITARY_NAMES = {"notary": "Notary", "gobtrotter": "Gob'Trotter", "princess": "Princess", "ambassador": "Ambassador"}
MOMENTS = {"placement": "when an opponent places a customer", "dignitary": "when an opponent activates a dignitary"}


def people(word: str) -> str:
    return PEOPLE_NAMES[word]


def spell_effect(effect: Effect) -> str:
    n = effect.amount
    sentences = {
        "coins": f"Gain {amount(n, 'coin')}.",
        "points": f"Score {amount(n, 'point')}.",
        "income": "Gain your income again.",
        "owner_income": "If you own a deed of the tavern where the customer sits, gain your income.",
        "privilege": f"Take {amount(n, 'privilege token')}.",
        "draw": f"Draw {amount(n, 'spell')}.",
        "tax": f"Every opponent gives you {amount(n, 'coin')} if they can.",
        "level": f"Rise {amount(n, 'level')} on the {people(effect.people)} track." if effect.people
        else f"Rise {amount(n, 'level')} on a people track of your choice.",
        "favour": f"Take {amount(n, 'royal favour')} from the castle.",
        "guild": "Place a guild token of your choice in a tavern.",
        "move_dignitary": "Move a dignitary to another tavern (without its skill).",
        "lose_coins": f"Whoever draws it loses {amount(n, 'coin')} and draws again.",
    }
    return sentences[effect.kind]


def spell_text(spell_id: str) -> str:
    spell = SPELLS[spell_id]
    if spell.curse:
        return f"The Curse: not a spell. Whoever draws it loses {amount(CURSE_COINS, 'coin')} and draws again."
    when = f"Instant: cast {MOMENTS[spell.instant]}." if spell.instant else "Cast on your own turn after placing."
    return f"{' '.join(spell_effect(e) for e in spell.effects)} {when} Costs {amount(spell.cost, 'coin')}."


def customer_text(card_id: str) -> str:
    card = CUSTOMERS[card_id]
    who = listing([people(p) for p in card.peoples], "or")
    guilds = listing([GUILD_NAMES[g] for g in card.guilds])
    seats = "any number of players" if card.players <= 2 else f"{card.players} or more players"
    return (f"Take {article(who)} customer tile and seat it at a free table of that "
            f"colour. Guild symbols: {guilds}. In the deck with {seats}.")


FAVOUR_TEXTS = {
    "change_guild": "Before placing: change one guild symbol of the card you play.",
    "add_guild": "Before placing: the card you play also shows the {guild} symbol.",
    "other_people": "Before placing: take a customer tile of a people the card does not show.",
    "guild_token": f"Place a guild token in a tavern and score {GUILD_TOKEN_POINTS} points.",
    "second_spell": "Cast a second spell this turn.",
    "level": "Rise one level on a people track of your choice.",
    "move_customer": f"Move a placed customer to a free table of another tavern; gain {MOVE_INCOME} coins.",
}


def favour_text(favour_id: str) -> str:
    favour = FAVOURS[favour_id]
    return FAVOUR_TEXTS[favour.kind].format(guild=GUILD_NAMES.get(favour.guild, ""))


def bonus_text(level: Level) -> str:
    if not level.bonus:
        return "nothing"
    words = {"spell": "spell", "points": "point", "coins": "coin", "privilege": "privilege token"}
    return listing([amount(n, words.get(k, k)) for k, n in level.bonus.items()])


def _taverns() -> list[Item]:
    out = []
    for side in BOARD.sides:
        for tavern in side.taverns:
            deeds = "; ".join(f"{d.price} coins for {amount(d.points, 'point')}" for d in tavern.deeds)
            tables = listing([f"{tavern.tables.count(p)} {people(p)}" for p in PEOPLES if p in tavern.tables])
            text = (f"A {tavern.size} tavern ({side.id} players) with {amount(len(tavern.tables), 'table')}: {tables}. "
                    f"Printed guild symbol: {listing([GUILD_NAMES[g] for g in tavern.symbols])}. Deeds: {deeds}.")
            out.append(Item(id=f"{side.id}/{tavern.id}", name=tavern.name, category="space", kind="tavern",
                            ids=(tavern.id,), text=text,
                            numbers={"side": side.id, "tables": list(tavern.tables), "symbols": list(tavern.symbols),
                                     "deed_prices": [d.price for d in tavern.deeds],
                                     "deed_points": [d.points for d in tavern.deeds]}))
    return out


def _tracks() -> list[Item]:
    scores = ", ".join(map(str, TRACKS.scores))
    out = []
    for p in TRACKS.peoples:
        bonuses = "; ".join(f"level {lv.level}: {bonus_text(lv)}" for lv in p.bonuses)
        top = " Only the first player to reach the top level may stand there." if TRACKS.top_level_unique else ""
        text = (f"The {people(p.id)} track ({p.colour} tables). Seating {article(people(p.id))} raises you a level "
                f"and gives its bonus: {bonuses}. At the end levels 0 to {len(TRACKS.scores) - 1} score {scores}.{top}")
        out.append(Item(id=p.id, name=f"{people(p.id)} track", category="track", kind="people", ids=(p.id,),
                        text=text, numbers={"colour": p.colour, "scores": list(TRACKS.scores)}))
    return out


def _dignitaries() -> list[Item]:
    texts = {
        "notary": "Buy a deed of the tavern it moves to at its price; an opponent's deed costs "
        f"{dg.TAKEOVER_SURCHARGE} more and half of what you pay goes to them.",
        "gobtrotter": "Place guild tokens in the tavern it moves to: "
        + "; ".join(f"{amount(n, 'token')} for {c} coins, {p} points" for n, (c, p) in dg.GOBTROTTER.items()) + ".",
        "princess": "Take royal favours: " + "; ".join(f"{n} for {c} coins" for n, c in dg.PRINCESS.items()) + ".",
        "ambassador": "Rise on people tracks: "
        + "; ".join(f"{amount(n, 'level')} for {c} coins" for n, c in dg.AMBASSADOR.items()) + ".",
    }
    return [Item(id=d, name=name, category="tile", kind="dignitary", ids=(d,),
                 text=f"{texts[d]} Activate it from your tavern or by discarding {dg.PRIVILEGES_FOR_EXTRA} privileges.")
            for d, name in DIGNITARY_NAMES.items()]


def royal_text(option: str) -> str:
    if option == "king":
        return f"King: {KING_POINTS} points."
    least = THRESHOLDS[option]
    return f"{title(option)}: " + ", ".join(f"{pts} for {n}+" for n, pts in zip(least, BRACKET_POINTS, strict=True))


RULES = (
    "Two to five tavern keepers seat customers of four peoples in five taverns over a fixed number of turns.",
    f"Setup: each player buys deeds of taverns in two rounds; every player holds {HAND} spells; "
    f"{CASTLE} royal favours lie face up in the castle.",
    "Your turn: pick a customer card from the row and seat its tile at a free table of its colour. You rise a "
    "level on that people's track and take its bonus, and every deed owner of that tavern gains income. Then you "
    "may activate dignitaries, cast one spell, sell spells and use royal favours.",
    "End: each player in royal order takes one royal scoring ("
    + "; ".join(royal_text(o) for o in OPTIONS) + "), then the people tracks score. Most points wins.",
)


def content() -> Content:
    items = [
        *(Item(id=c, name=f"{listing([people(p) for p in d.peoples], 'or')} customer", category="card",
               kind="customer", ids=(c,), text=customer_text(c),
               numbers={"peoples": list(d.peoples), "guilds": list(d.guilds), "players": d.players})
          for c, d in CUSTOMERS.items()),
        *(Item(id=s, name=d.name, category="card", kind="curse" if d.curse else "spell", ids=(s,), text=spell_text(s),
               cost={"coins": d.cost} if d.cost else {}, numbers={"instant": d.instant or ""})
          for s, d in SPELLS.items()),
        *(Item(id=f, name=f"Royal favour: {title(d.kind)}", category="tile", kind="favour", ids=(f,),
               text=favour_text(f), numbers={"guild": d.guild} if d.guild else {})
          for f, d in FAVOURS.items()),
        *_taverns(), *_tracks(), *_dignitaries(),
    ]
    terms = {**PEOPLE_NAMES, **GUILD_NAMES, **DIGNITARY_NAMES, "coins": "coins", "points": "points",
             "privileges": "privilege tokens", "king": "King", "queen": "Queen", "archduke": "Archduke",
             "archmage": "Archmage"}
    return Content(game="taverna", name="Taverna", rules=RULES, terms=terms, items=tuple(items))
