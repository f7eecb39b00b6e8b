"""Whole matches played by clicking, against the service's bots, to the final scores."""

from __future__ import annotations

from tests.web.table import create_match, first_move, mercenaries_move, play_to_the_end, settle


def test_heros_tavern_against_two_bots_to_the_final_scores(page):
    links = create_match(page, "heros-tavern", seats=3, bots=[1, 2])
    page.goto(page.url.split("#")[0] + links[0])
    settle(page)
    assert page.locator(".own-hand .card").count() == 7  # the opening deal: seven cards, yours face up
    assert page.locator(".opponents .hand.backs .card.back").count() == 14  # the others' hands as card backs
    assert page.locator(".moves").count() == 0  # every legal move is on the table itself
    # the first move on the table is a card (a pick in the draft, a purchase after it), then "Finish purchases"
    clicks = play_to_the_end(page, first_move, limit=200)
    assert clicks >= 35  # five rounds of seven picks at least
    result = page.locator("#result")
    assert "win" in result.locator("h2").inner_text()
    assert result.locator(".standings li").count() == 3
    assert page.locator(".pad tbody tr").count() == 3
    assert page.locator(".round.now").count() == 0  # all five rounds done


def test_mercenaries_against_the_greedy_bot_to_the_end(page):
    links = create_match(page, "mercenaries", seats=2, bots=[1])
    page.goto(page.url.split("#")[0] + links[0])
    settle(page)
    rival_hand = page.locator(".side.rival .hand.backs")
    in_hand = int(rival_hand.get_attribute("title").split()[0])
    assert rival_hand.locator(".card.back").count() == in_hand > 0  # the rival's hand: face down
    assert page.locator(".moves").count() == 0
    play_to_the_end(page, mercenaries_move, limit=600)
    result = page.locator("#result")
    assert "wins" in result.locator("h2").inner_text()
    assert result.locator(".standings li").count() == 2
