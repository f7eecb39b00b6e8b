"""Driving the web client as a player does: the lobby's form, clicks on the table, waits on the
table's data attributes (version, pending, status) rather than on sleeps."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page

SETTLED = """() => {
  const t = document.querySelector('#table');
  if (!t || t.dataset.pending === 'true') return false;
  return t.dataset.status === 'finished' || t.querySelector('.actionable') !== null;
}"""


def create_match(page: Page, game: str, seats: int, bots: list[int], options: dict[str, str] | None = None) -> dict:
    """Fill in the lobby's form; the links page answers every seat's and the spectator's link."""
    if urlsplit(page.url).fragment not in ("", "/"):
        page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector("#create-match")
    page.select_option("#game", game)
    page.fill("#seats", str(seats))
    page.dispatch_event("#seats", "input")
    for name, value in (options or {}).items():
        page.select_option(f"#create select[data-option={name}]", value)
    for box in page.locator(".bot-seat input").all():
        box.set_checked(int(box.get_attribute("data-seat")) in bots)
    page.click("#create-match")
    page.wait_for_selector(".created .links")
    links = {}
    for item in page.locator(".links li").all():
        anchor = item.locator("a")
        key = item.get_attribute("data-seat")
        links["spectator" if key is None else int(key)] = anchor.get_attribute("href")
    return links


def register(page: Page, name: str) -> None:
    """Play online under this name: the lobby's name prompt."""
    page.fill("#player-name", name)
    page.click("#register")
    page.wait_for_selector("#playing-as")


def host_online(page: Page, game: str, seats: int, clock: int, options: dict[str, str] | None = None) -> None:
    """Host a public match from the lobby's online form (no bots; ``clock`` seconds a move, 0: none)
    and wait at its waiting table."""
    page.select_option("#online-game", game)
    for name, value in (options or {}).items():
        page.select_option(f"#online-options select[data-option={name}]", value)
    page.fill("#online-seats", str(seats))
    page.fill("#online-bots", "0")
    page.fill("#online-clock", str(clock))
    page.click("#host-match")
    page.wait_for_selector("#table[data-status=waiting]", state="attached")


def settle(page: Page) -> None:
    page.wait_for_function(SETTLED)


def version(page: Page) -> int:
    return int(page.get_attribute("#table", "data-version"))


def finished(page: Page) -> bool:
    return page.get_attribute("#table", "data-status") == "finished"


def assert_no_error(page: Page) -> None:
    box = page.locator("#error")
    assert box.is_hidden(), box.inner_text()


def click_and_choose(page: Page, target, choice: str | None = None) -> None:
    """Click an element; when it opens a menu of several moves, pick the one containing `choice` (else the first)."""
    target.click()
    menu = page.locator(".menu")
    if menu.count():
        items = menu.locator(".menu-item")
        chosen = items.filter(has_text=choice) if choice else items
        chosen.first.click()


def play_to_the_end(page, choose_move, limit: int) -> int:
    """Click moves until the match is over; each click must be accepted (no error) and move the version on."""
    clicks = 0
    settle(page)
    while not finished(page):
        assert clicks < limit, "the match did not end"
        before = version(page)
        choose_move(page)
        clicks += 1
        settle(page)
        assert_no_error(page)
        assert version(page) > before
    return clicks


def first_move(page) -> None:
    click_and_choose(page, page.locator("#table .actionable").first)


def mercenaries_move(page) -> None:
    """An eager captain: hire in attack, attack with every ready mercenary, then end the phase."""
    table = page.locator("#table")
    hire = table.locator(".own-hand .card.actionable[data-types~=Contract]")
    if hire.count():
        click_and_choose(page, hire.first, "Hire in attack")
        return
    ready = table.locator(".card.selectable")
    if ready.count():
        for index in range(ready.count()):
            ready.nth(index).click()  # pick the attacking group card by card
        attack = table.locator("button.attack")
        assert attack.is_enabled()
        attack.click()
        return
    mercenaries_pass(page)


def mercenaries_pass(page) -> None:
    """Discard, dismiss or end the phase, whichever is asked (else any move): no hire, no attack."""
    table = page.locator("#table")
    for kind in ("ChooseDiscard", "DismissMercenary", "EndPhase"):
        target = table.locator(f".actionable[data-types~={kind}]")
        if target.count():
            click_and_choose(page, target.first)
            return
    click_and_choose(page, table.locator(".actionable").first)
