"""Whole matches played by clicking, against the service's bots, to the final scores."""

from __future__ import annotations

from tests.web.table import assert_no_error, click_and_choose, create_match, finished, settle, version


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
    # Hero's Tavern: the first move on the table is a card (a pick, then a purchase), then "Finish purchases"
    click_and_choose(page, page.locator("#table .actionable").first)


def test_heros_tavern_against_two_bots_to_the_final_scores(page):
    links = create_match(page, "heros-tavern", seats=3, bots=[1, 2])
    page.goto(page.url.split("#")[0] + links[0])
    settle(page)
    assert page.locator(".own-hand .card").count() == 7  # the opening deal: seven cards, yours face up
    assert page.locator(".opponents .hand.backs .card.back").count() == 14  # the others' hands as card backs
    assert page.locator(".moves").count() == 0  # every legal move is on the table itself
    clicks = play_to_the_end(page, first_move, limit=200)
    assert clicks >= 35  # five rounds of seven picks at least
    result = page.locator("#result")
    assert "win" in result.locator("h2").inner_text()
    assert result.locator(".standings li").count() == 3
    assert page.locator(".pad tbody tr").count() == 3
    assert page.locator(".round.now").count() == 0  # all five rounds done


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
    for kind in ("ChooseDiscard", "DismissMercenary", "EndPhase"):
        target = table.locator(f".actionable[data-types~={kind}]")
        if target.count():
            click_and_choose(page, target.first)
            return
    click_and_choose(page, table.locator(".actionable").first)


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
