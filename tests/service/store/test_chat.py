"""ChatLog's contract (services/store/chat.py) on each backend: a channel's lines in order and
capped, a removal kept as a line of its own and found with every page, blocks per blocker,
reports kept for the moderators, a closed chat taking no line, and every chat key on the match's
slot, none in its log."""

from __future__ import annotations

import pytest

from services.store import chat, keys
from services.store.chat import ChatLog
from services.store.cluster import slot_of
from services.store.connections import link_to

pytestmark = pytest.mark.anyio


async def test_a_channels_lines_are_read_after_an_id_oldest_first_and_apart_from_the_other(backend):
    log = ChatLog(backend.events)
    first = await log.say("m1", "players", "0", "Ann", "hello")
    second = await log.say("m1", "players", "1", "Bob", "hi")
    await log.say("m1", "spectators", "vabc", "Eve", "go Ann")
    page = await log.read("m1", "players")
    assert [(line.sender, line.name, line.text, line.kind) for line in page.lines] == [
        ("0", "Ann", "hello", chat.SAID), ("1", "Bob", "hi", chat.SAID)]
    assert page.lines[0] == first and first.at > 0 and page.removed == {}
    assert [line.id for line in (await log.read("m1", "players", first.id)).lines] == [second.id]
    assert [line.text for line in (await log.read("m1", "spectators")).lines] == ["go Ann"]
    assert (await log.read("nowhere", "players")).lines == []


async def test_a_channel_keeps_its_newest_lines_only(backend):
    log = ChatLog(backend.events)
    for n in range(chat.KEPT + 300):
        await log.say("m2", "players", "0", "Ann", str(n))
    lines = (await log.read("m2", "players", count=10 * chat.KEPT)).lines
    assert chat.KEPT <= len(lines) < chat.KEPT + 300 and lines[-1].text == str(chat.KEPT + 299)


async def test_a_removal_is_a_line_of_its_own_and_every_page_knows_it(backend):
    log = ChatLog(backend.events)
    said = await log.say("m3", "players", "1", "Bob", "rude")
    later = await log.say("m3", "players", "0", "Ann", "fine")
    removal = await log.remove("m3", "players", said.id, "abuse")
    assert removal is not None and (removal.kind, removal.target, removal.text) == (chat.REMOVED, said.id, "abuse")
    page = await log.read("m3", "players", later.id)
    assert [line.id for line in page.lines] == [removal.id] and page.removed == {said.id: removal.id}
    assert (await log.read("m3", "players")).lines[0].text == "rude"  # the store keeps it: the reader hides it
    assert await log.remove("m3", "players", removal.id, "again") is None  # a removal is not removed
    assert await log.remove("m3", "spectators", said.id, "wrong channel") is None
    assert await log.remove("m3", "players", "1-0", "never said") is None


async def test_a_removal_hides_its_channels_line_only_when_the_other_holds_the_same_id(backend):
    # two channels' streams give one id to lines said in the same millisecond (CI found it)
    log = ChatLog(backend.events)
    same = "1700000000000-0"
    for channel, text in (("players", "gg"), ("spectators", "boo")):
        await link_to(backend.events).exchange([["XADD", keys.chat("m7", channel), same,
                                                 "k", chat.SAID, "s", "0", "n", "Ann", "t", text]])
    removal = await log.remove("m7", "spectators", same, "abuse")
    assert removal is not None
    assert (await log.read("m7", "spectators")).removed == {same: removal.id}
    assert (await log.read("m7", "players")).removed == {}

async def test_blocks_are_each_blockers_own(backend):
    log = ChatLog(backend.events)
    await log.block("m4", "0", "1", True)
    await log.block("m4", "0", "2", True)
    await log.block("m4", "2", "0", True)
    await log.block("m4", "0", "2", False)
    assert await log.blocked("m4", "0") == {"1"}
    assert await log.blocked("m4", "2") == {"0"} and await log.blocked("m4", "1") == set()


async def test_reports_are_kept_in_order_for_the_moderators(backend):
    log = ChatLog(backend.events)
    first = await log.report("m5", b'{"id": "1-0"}')
    await log.report("m5", b'{"id": "2-0"}')
    assert [raw for _, raw in await log.reports("m5")] == [b'{"id": "1-0"}', b'{"id": "2-0"}']
    assert [raw for _, raw in await log.reports("m5", first)] == [b'{"id": "2-0"}']


async def test_every_chat_key_is_on_the_matchs_slot_and_the_log_holds_none_of_it(backend):
    log = ChatLog(backend.events)
    said = await log.say("m6", "players", "0", "Ann", "hello")
    await log.remove("m6", "players", said.id, "x")
    await log.block("m6", "0", "1", True)
    await log.report("m6", b"{}")
    named = keys.chat_keys("m6", chat.CHANNELS)
    assert {slot_of(key) for key in named} == {slot_of(keys.log("m6"))}
    (held,) = await link_to(backend.events).exchange([["EXISTS", named[0], *named[2:]]], True)
    assert held == 4
    (in_log,) = await link_to(backend.events).exchange([["EXISTS", keys.log("m6")]], True)
    assert in_log == 0


async def test_a_closed_chat_takes_no_line_and_keeps_those_it_had(backend):
    """Closed by the archiver before it reads the chat for the archive: a line sent after that read
    would be evicted with the match, unarchived, its sender told it was kept."""
    log = ChatLog(backend.events)
    kept = await log.say("m9", "players", "0", "Ann", "gg")
    await log.say("m8", "players", "0", "Ann", "other match")
    await log.close("m9")
    with pytest.raises(chat.Closed):
        await log.say("m9", "players", "1", "Bob", "too late")
    with pytest.raises(chat.Closed):
        await log.remove("m9", "players", kept.id, "spam")
    with pytest.raises(chat.Closed):  # nor a report: it would be evicted with the match, in no archive
        await log.report("m9", b"{}")
    assert await log.reports("m9") == []
    assert (await log.read("m9", "players")).lines == [kept]
    assert len((await log.read("m8", "players")).lines) == 1
    await log.say("m8", "spectators", "vabc", "Eve", "another match's chat is open")
