"""Issue 32's fourth trap, in a browser: a seat that timed out and was taken over says so (a bot
plays for it for now, never "(bot)" under a gold "Your move"), offers "Take back my seat", and
has it back on a click; its clock turns red with little time left. The other seat is played by
the test through the API, so that the match waits for it while the page is looked at."""

from __future__ import annotations

import random
import time

import httpx

from tests.web.test_readable import assert_accessible


def test_a_seat_taken_over_after_its_timeout_is_taken_back_from_the_table(page, server):
    # a clock of 5 s a move, no bank, taken over at the first timeout (the smallest the service allows)
    created = httpx.post(f"{server}/v1/matches", json={
        "game": "mercenaries", "seats": 2, "clock": {"per_move_s": 5, "bank_s": 0, "limit": 1}}).json()
    match_id, (mine, other) = created["match_id"], (seat["token"] for seat in created["seats"])
    choose = random.Random(32)

    def other_moves() -> None:
        """Seat 2 (the test's) moves when it must: the match then waits on seat 1 or its bot."""
        seen = httpx.get(f"{server}/v1/matches/{match_id}/view", headers={"authorization": f"Bearer {other}"}).json()
        if seen["legal"]:
            httpx.post(f"{server}/v1/matches/{match_id}/commands", json=choose.choice(seen["legal"]),
                       headers={"authorization": f"Bearer {other}", "if-match": f'"{seen["version"]}"'})

    page.goto(f"{server}/#/match/{match_id}?token={mine}")
    page.wait_for_selector("#table[data-status=active]", state="attached")
    page.wait_for_selector("#players .clock.low[data-deadline]")  # 5 s left at most: red
    deadline = time.monotonic() + 60
    while not page.locator("#reclaim").count():  # until seat 1's move's time runs out and a bot takes it
        assert time.monotonic() < deadline, "seat 1 was never taken over"
        other_moves()
        page.wait_for_timeout(250)
    assert page.locator(".who").inner_text() == "You are Player 1 (a bot plays for now)"
    assert page.locator("#status.your-move").count() == 0
    assert_accessible(page)
    other_moves()  # the bot answers for seat 1 at once; then the match waits for seat 2 (up to 5 s)
    page.wait_for_timeout(1000)
    page.click("#reclaim")
    page.wait_for_selector("#reclaim", state="detached")
    assert page.locator(".who").inner_text() == "You are Player 1"
