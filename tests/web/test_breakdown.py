"""The end of a match, scored by category: a finished match's panel shows the breakdown as a table
(a row per category, named from the game's content, a column per player, the totals last, equal to
the standings' scores), in English and French, accessible at desktop and phone widths; and a
Mercenaries defence card, turned sideways, overlaps nothing beside it on a phone."""

from __future__ import annotations

import httpx

from tests.web.table import click_and_choose, create_match, finished, mercenaries_pass, settle
from tests.web.test_readable import PHONE, assert_accessible

TABLE = """() => {
  const t = document.querySelector('#result table.breakdown');
  if (!t) return null;
  const cells = (row) => [...row.querySelectorAll('th, td')].map((c) => c.innerText.trim());
  return { head: cells(t.tHead.rows[0]), rows: [...t.tBodies[0].rows].map(cells), total: cells(t.tFoot.rows[0]),
           categories: [...t.tBodies[0].rows].map((r) => r.dataset.category) };
}"""
STANDINGS = """() => Object.fromEntries([...document.querySelectorAll('#result .standings li')]
  .map((li) => [li.dataset.seat, li.innerText]))"""


def test_a_finished_match_shows_its_score_by_category(page, browser, server):
    links = create_match(page, "heros-tavern", seats=3, bots=[0, 1, 2])  # the bots play it out alone
    spectator = page.url.split("#")[0] + links["spectator"]
    page.goto(spectator)
    page.wait_for_selector("#table[data-status=finished] #result table.breakdown", timeout=90_000)
    table = page.evaluate(TABLE)
    content = httpx.get(server + "/v1/games/heros-tavern/content").json()
    assert table["categories"] == list(content["scoring"])
    assert [row[0] for row in table["rows"]] == list(content["scoring"].values())  # "Entertainment", "Staff", ...
    assert len(table["head"]) == 4 and table["total"][0] == "Total"
    totals = [int(n) for n in table["total"][1:]]
    assert totals == [sum(int(row[seat]) for row in table["rows"]) for seat in (1, 2, 3)]
    standings = page.evaluate(STANDINGS)
    for seat, total in enumerate(totals):
        assert f"score {total}" in standings[str(seat)]  # the table adds up to each player's score
    assert_accessible(page)
    page.set_viewport_size(PHONE)
    page.wait_for_selector("#result table.breakdown")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    assert_accessible(page)

    french = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900})
    try:
        other = french.new_page()
        other.goto(spectator)
        other.wait_for_selector("#table[data-status=finished] #result table.breakdown")
        table = other.evaluate(TABLE)
        names = httpx.get(server + "/v1/games/heros-tavern/content?lang=fr").json()["scoring"]
        assert [row[0] for row in table["rows"]] == list(names.values()) and "Jetons non dépensés" in names.values()
        assert other.inner_text("#result caption") == "Le score par catégorie" and table["total"][0] == "Total"
    finally:
        french.close()


OVERLAPS = """() => {
  const boxes = (side, selector) => [...side.querySelectorAll(selector)].map((el) => el.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  let turned = 0;
  for (const side of document.querySelectorAll('#table .side')) {
    const others = boxes(side, '.pile, .hand.backs, .trash');
    const cards = [...side.querySelectorAll('.battlefield .card.merc')];
    cards.forEach((card, i) => {
      if (!card.classList.contains('defence')) return;
      turned += 1;
      const box = card.getBoundingClientRect();
      if (others.some((o) => meet(box, o))) found.push(`${card.dataset.card} meets the deck, hand or trash`);
      cards.forEach((other, j) => {
        const meets = j !== i && meet(box, other.getBoundingClientRect());
        if (meets) found.push(`${card.dataset.card} meets ${other.dataset.card}`);
      });
    });
  }
  return { turned, found };
}"""


def test_a_turned_mercenary_overlaps_nothing_on_a_phone(page):
    page.set_viewport_size(PHONE)
    links = create_match(page, "mercenaries", seats=2, bots=[1])
    page.goto(page.url.split("#")[0] + links[0])
    for _ in range(60):  # end phases until a Morning offers a hire in defence, then hire one
        settle(page)
        assert not finished(page), "the match ended before a defence card was on the table"
        if page.evaluate(OVERLAPS)["turned"]:
            break
        hire = page.locator("#table .own-hand .card.actionable[data-types~=Contract]")
        if hire.count():
            click_and_choose(page, hire.first, "Hire in defence")
        else:
            mercenaries_pass(page)
    seen = page.evaluate(OVERLAPS)
    assert seen["turned"] >= 1 and seen["found"] == [], seen
