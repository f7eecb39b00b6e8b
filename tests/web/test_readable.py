"""A table a person can read, in Chromium, for each game: every card shows its name and its effect
text from GET /v1/games/{id}/content at several points of a match; no internal id shows on the page;
on a 390x844 phone nothing scrolls sideways and the player's own hand and moves come first; axe-core
finds no serious or critical accessibility violation on the table nor on the lobby. With
TAVERN_SCREENSHOTS=1 the pictures at 1280x900 and 390x844 go to docs/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from domain.games import game_ids, get_game
from tests.web.table import create_match, finished, first_move, mercenaries_move, settle

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
INTERNAL_ID = re.compile(r"\b(?:ta|ht|mc)-[a-z0-9]+(?:-[a-z0-9]+)*\b|\b[a-z]+(?:-[a-z]+)*-\d+\b|\b(?:rf|cu|sp)-\d+\b")
PHONE = {"width": 390, "height": 844}
POINTS = 3  # looks at the table: at the start and after two runs of moves
MOVES_BETWEEN = {"heros-tavern": 7, "mercenaries": 8}


def axe_violations(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci --prefix tests/web` (.ci/run and `make test` do)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["html"][:120] for n in v["nodes"][:3]]}
        for v in found if v["impact"] in ("serious", "critical")
    ]


def assert_accessible(page) -> None:
    violations = axe_violations(page)
    assert not violations, "\n".join(f"{v['id']} ({v['impact']}): {' | '.join(v['nodes'])}" for v in violations)


FACES = """() => [...document.querySelectorAll('#table .card[data-card]')].map((el) => ({
  id: el.dataset.card, name: el.querySelector('.name')?.innerText.trim() || '',
  effect: el.querySelector('.effect')?.innerText.trim() || '', role: el.getAttribute('role'), title: el.title }))"""


def check_faces(page, texts: dict[str, tuple[str, str]]) -> int:
    """Every card on the table names itself and says what it does, as the content does (read in one
    go: a live table redraws between two reads)."""
    faces = page.evaluate(FACES)
    for face in faces:
        name, text = texts[face["id"]]
        assert (face["name"], face["effect"]) == (name, text), face
        assert face["role"] in ("button", "group") and face["title"].startswith(name), face
    return len(faces)


LABELS = """() => [...document.querySelectorAll('[title], [aria-label]')]
  .map((el) => `${el.getAttribute('title') || ''} ${el.getAttribute('aria-label') || ''}`).join('\\n')"""


def check_no_internal_id(page) -> None:
    """Neither the page's text nor a tooltip or accessible name (the moves' menus) shows an id."""
    shown = page.locator("body").inner_text() + "\n" + page.evaluate(LABELS)
    leaked = INTERNAL_ID.findall(shown)
    assert not leaked, f"internal ids on the page: {leaked[:5]}"


def move(page, game: str) -> None:
    (mercenaries_move if game == "mercenaries" else first_move)(page)


@pytest.mark.parametrize("game", game_ids())
def test_a_table_a_person_can_read(page, browser, server, shots, game):
    rules = get_game(game)
    seats = max(rules.min_seats, min(3, rules.max_seats))
    content = httpx.get(f"{server}/v1/games/{game}/content").json()
    texts = {ident: (item["name"], item["text"]) for item in content["items"] for ident in item["ids"]}
    links = create_match(page, game, seats=seats, bots=list(range(1, seats)))
    page.goto(server + "/" + links[0])
    settle(page)
    seen = 0
    for point in range(POINTS):
        seen += check_faces(page, texts)
        check_no_internal_id(page)
        if point == POINTS - 1 or finished(page):
            break
        for _ in range(MOVES_BETWEEN.get(game, 4)):
            settle(page)
            if finished(page):
                break
            move(page, game)
        settle(page)
    assert seen, "no card on the table"
    assert page.locator("#rules li").count() == len(content["rules"])
    assert page.locator("#announce[aria-live]").count() == 1
    assert page.locator("#log li").first.inner_text().strip()
    assert_accessible(page)
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"{game}-1280x900.png"))

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        small = phone.new_page()
        small.goto(server + "/" + links[0])
        small.wait_for_selector("#table[data-version] .table")
        settle(small)
        assert small.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), "the phone scrolls sideways"
        own = small.locator("#table .own, #table .moves").first
        others = small.locator("#table .opponents").first
        if own.count() and others.count():
            assert own.bounding_box()["y"] < others.bounding_box()["y"], "the player's own side is not first"
        check_no_internal_id(small)
        assert_accessible(small)  # each table at a phone's width too
        small.screenshot(path=str(shots / f"{game}-390x844.png"))
    finally:
        phone.close()


def test_the_lobby_has_no_serious_accessibility_violation(page, shots):
    page.wait_for_selector("#create-match")
    assert_accessible(page)
    check_no_internal_id(page)


def test_a_click_that_would_spend_asks_first(page, server):
    """Buying a card for good spends tokens: the click opens a confirmation (the move in words, and
    Cancel) and sends nothing by itself."""
    buy = page.locator("#table .card.actionable[data-types~=BuyCard]")
    # A seat's tokens must pay a cost exactly, so some deals (about 1 in 25 with these picks) never
    # offer this seat a purchase: such a match is played out and another one dealt.
    for _ in range(6):
        links = create_match(page, "heros-tavern", seats=3, bots=[1, 2])
        page.goto(server + "/" + links[0])
        settle(page)
        while not buy.count() and not finished(page):
            first_move(page)
            settle(page)
        if buy.count():
            break
    assert buy.count(), "no purchase offered in six matches"
    settle(page)
    sent: list[str] = []
    page.on("request", lambda request: request.url.endswith("/commands") and sent.append(request.url))
    buy.first.click()
    item = page.locator(".menu .menu-item")
    assert item.count() == 1 and item.inner_text().startswith("Confirm: ")
    page.click(".menu .menu-cancel")
    assert page.locator(".menu").count() == 0
    assert sent == []  # nothing was sent
