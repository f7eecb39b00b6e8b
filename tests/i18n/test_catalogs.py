"""The message catalogs, the server's (projections/i18n/) and the web client's (services/gateway/web/
locales/, tools/client_catalogs.py): every message id has a text in every language, with the same
placeholders, and the files on disk are what `make catalogs` makes of the code and the .po
translations now (the template holds every id the code and seeds use, the .mo and the client's
JSON are compiled)."""

from __future__ import annotations

import importlib
import string

import pytest
from babel.messages.pofile import read_po

from domain.bots.random_bot import RandomBot
from domain.games import game_ids, get_game
from domain.kernel import Table, bot_turn
from projections.i18n import DOMAIN, LANGUAGES, LOCALES, texts
from projections.narration import narrate
from tools import catalogs, client_catalogs

DOMAINS = {DOMAIN: LOCALES, client_catalogs.DOMAIN: client_catalogs.LOCALES}  # the server's texts, the client's


def placeholders(text: str) -> set[str]:
    """``{seat}``, ``{game!r}``: the names a message fills (a conversion or format spec aside)."""
    return {name.split("!")[0].split(":")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalog(language: str, domain: str = DOMAIN):
    with (DOMAINS[domain] / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
        return read_po(file, locale=language)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_id_has_a_text_with_the_same_placeholders(language, domain):
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog(LANGUAGES[0], domain) if m.id}
    found = catalog(language, domain)
    assert {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in found if m.id} == ids
    assert not found.fuzzy and not list(found.obsolete)
    for message in found:
        if not message.id:
            continue
        if isinstance(message.id, tuple):  # singular and plural: each form says the plural id's names
            forms = message.string
            assert len(forms) == found.num_plurals and all(forms), message.id
            assert placeholders(forms[0]) == placeholders(message.id[0]) or placeholders(forms[0]) == placeholders(
                message.id[1]
            ), message.id
            assert all(placeholders(form) == placeholders(message.id[1]) for form in forms[1:]), message.id
        else:
            assert message.string, f"{language}: no text for {message.id!r}"
            assert placeholders(message.string) == placeholders(message.id), (message.id, message.string)


@pytest.mark.parametrize("tool", [catalogs, client_catalogs], ids=DOMAINS)
def test_the_catalog_files_are_current(tool):
    """Extraction from the code and the seeds, merged and compiled: the committed files, byte for byte
    (`make catalogs` writes them; a message added to the code without its translations fails here)."""
    stale = [str(path) for path, body in tool.files().items() if not path.exists() or path.read_bytes() != body]
    assert not stale, f"run `make catalogs` (and translate the new ids): {stale}"


def test_french_is_said_in_french_and_plurals_follow_its_rule():
    fr = texts("fr")
    assert fr._("{winner} won the match.", winner="Ann") == "Ann a gagné la partie."
    # French counts 0 and 1 as singular, English only 1
    assert [fr.n_("{count} coin", "{count} coins", n) for n in (0, 1, 2)] == ["0 pièce", "1 pièce", "2 pièces"]
    assert [texts("en").n_("{count} coin", "{count} coins", n) for n in (0, 1)] == ["0 coins", "1 coin"]
    assert (fr.p_("playing card", "Queen"), fr._("Queen")) == ("Dame", "Reine")  # one English word, two senses


class Spy:
    """A catalog that notes each message id looked up which the catalog does not hold."""

    def __init__(self, catalog, held: set[str]) -> None:
        self.catalog, self.held, self.missing = catalog, held, set()

    def gettext(self, message: str) -> str:
        self.missing |= {message} - self.held
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        self.missing |= {singular} - self.held
        return self.catalog.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        self.missing |= {f"{context}|{message}"} - self.held
        return self.catalog.pgettext(context, message)


def test_every_text_the_content_and_narration_say_is_in_the_catalog(monkeypatch):
    """What extraction could miss (a message inside another's arguments, a name built at run time) is
    looked up by the content of every game and the narration of a random match of each, in French."""
    fr = texts("fr")
    held = {(f"{m.context}|" if m.context else "") + (m.id if isinstance(m.id, str) else m.id[0])
            for m in catalog("fr") if m.id}  # fmt: skip
    spy = Spy(fr._catalog, held)
    monkeypatch.setattr(fr, "_catalog", spy)
    for game_id in game_ids():
        game = get_game(game_id)
        content = importlib.import_module(f"projections.content.{game_id.replace('-', '_')}").content(fr)
        assert content.language == "fr"
        setup = game.setup(game.max_seats if game_id == "mercenaries" else 3, {})
        table, bots = Table(game, setup, "catalog"), [RandomBot() for _ in range(setup.seats)]
        while not table.finished and len(table.events) < 3000:
            table.submit(*bot_turn(table, bots))
        for event in table.events:
            for seat in (0, None):
                narrate(game, event, seat, whole=seat is None, language="fr")
    assert not spy.missing, f"looked up but not in the catalog (run `make catalogs`): {sorted(spy.missing)}"
