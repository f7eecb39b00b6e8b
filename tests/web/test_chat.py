"""The table chat's panel (docs/chat.md): two seats talk, told by their streams; the spectator's
panel shows the spectators' channel only; Mute hides a sender in this browser (kept across a
reload), Block has the server withhold a sender's lines, Report is confirmed."""

from __future__ import annotations

from tests.web.table import create_match


def say(page, text: str) -> None:
    page.fill("#chat .chat-text", text)
    page.click("#chat button[type=submit]")


def shown(page) -> list[str]:
    return page.locator("#chat .chat-words").all_inner_texts()


def test_two_seats_talk_mute_block_and_report_while_the_spectators_talk_apart(browser, page, server):
    links = create_match(page, "mercenaries", seats=2, bots=[])
    base = page.url.split("#")[0]
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        two, spectator = other.new_page(), watcher.new_page()
        page.goto(base + links[0])
        two.goto(base + links[1])
        spectator.goto(base + links["spectator"])
        for each in (page, two, spectator):
            each.wait_for_selector("#chat .chat-text")
        say(page, "good luck")
        two.wait_for_selector("#chat .chat-words:has-text('good luck')")  # told by its stream
        say(spectator, "go go")
        spectator.wait_for_selector("#chat .chat-words:has-text('go go')")
        say(two, "thanks")
        page.wait_for_selector("#chat .chat-words:has-text('thanks')")
        assert "good luck" not in shown(spectator) and "go go" not in shown(page)

        # Report: the reason asked, the report confirmed
        two.on("dialog", lambda dialog: dialog.accept("rude"))
        two.click("#chat .chat-line[data-sender='0'] .chat-report")
        two.wait_for_selector("#chat .chat-error:has-text('Reported')")

        # Mute: this browser hides seat 0's lines, and remembers it
        two.click("#chat .chat-line[data-sender='0'] .chat-mute")
        assert "good luck" not in shown(two) and "thanks" in shown(two)
        two.reload()
        two.wait_for_selector("#chat .chat-words:has-text('thanks')")
        assert "good luck" not in shown(two)

        # Block: seat 0 blocks seat 1; the server gives it none of seat 1's lines since
        page.click("#chat .chat-line[data-sender='1'] .chat-block")
        page.wait_for_function("!document.querySelector(\"#chat .chat-line[data-sender='1']\")")
        say(two, "are you there?")
        two.wait_for_selector("#chat .chat-words:has-text('are you there?')")  # said before what follows
        say(page, "still here")
        page.wait_for_selector("#chat .chat-words:has-text('still here')")
        assert "are you there?" not in shown(page)
    finally:
        other.close()
        watcher.close()
