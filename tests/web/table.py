"""Driving the web client as a player does: the lobby's form, clicks on the table, waits on the
table's data attributes (version, pending, status) rather than on sleeps."""

from __future__ import annotations

from playwright.sync_api import Page

SETTLED = """() => {
  const t = document.querySelector('#table');
  if (!t || t.dataset.pending === 'true') return false;
  return t.dataset.status === 'finished' || t.querySelector('.actionable') !== null;
}"""


def create_match(page: Page, game: str, seats: int, bots: list[int], options: dict[str, str] | None = None) -> dict:
    """Fill in the lobby's form; the links page answers every seat's and the spectator's link."""
    page.goto(page.url.split("#")[0] + "#/")
    page.select_option("#game", game)
    page.fill("#seats", str(seats))
    page.dispatch_event("#seats", "input")
    for name, value in (options or {}).items():
        page.select_option(f"select[data-option={name}]", value)
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
