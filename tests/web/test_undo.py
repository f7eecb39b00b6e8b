"""The Undo button: shown to the seat whose last move its game lets it take back, and gone once used."""

from __future__ import annotations

from tests.web.table import assert_no_error, create_match, settle, version
from tests.web.test_readable import assert_accessible


def test_a_face_down_pick_is_taken_back_with_the_undo_button(page, server):
    page.goto(server + "/")
    links = create_match(page, "heros-tavern", seats=3, bots=[])  # nobody else acts meanwhile
    page.goto(server + "/" + links[0])
    settle(page)
    assert page.locator("#undo").count() == 0  # nothing of this seat's to take back yet
    hand = page.locator(".own-hand .card.actionable")
    picked = hand.first.get_attribute("data-card")
    before = version(page)
    page.click(f".own-hand .card[data-card='{picked}']")
    page.wait_for_selector("#undo")
    assert_accessible(page)  # the table with its Undo button
    page.click("#undo")
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) >= {before + 2}")
    page.wait_for_selector("#undo", state="detached")
    settle(page)
    assert page.locator(f".own-hand .card.actionable[data-card='{picked}']").count() == 1  # the card is back
    page.locator("#log li", has_text="took back their last move").wait_for()
    assert_no_error(page)
