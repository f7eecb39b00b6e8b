"""The tables of the envelopes a gateway sends (services/gateway/presence.py): each seat's
``connected`` as known then, whether the table as shown was kept from the envelope before or not."""

from __future__ import annotations

import msgspec

from projections.views import TablePlayer
from services.gateway.presence import Tables, overlay


def envelope(seat: int, version: int, names: list[str | None]) -> bytes:
    players = [TablePlayer(seat, name, False, False) for seat, name in enumerate(names)]
    return b'{"match_id":"m","version":%d,"hand":[%d],"players":%s}' % (version, seat, msgspec.json.encode(players))


def test_each_envelope_shows_who_is_connected_now_whatever_was_kept():
    tables = Tables()
    sent = [
        (envelope(0, 1, ["Ann", None]), frozenset({0})),
        (envelope(1, 1, ["Ann", None]), frozenset({0})),  # the same table: kept
        (envelope(1, 1, ["Ann", None]), frozenset({0, 1})),  # a seat came
        (envelope(0, 2, ["Ann", "Bob"]), frozenset({0, 1})),  # another table (a name taken)
        (envelope(1, 2, ["Ann", "Bob"]), frozenset()),
        (b'{"match_id":"m","version":3}', frozenset({1})),  # no table: as it is
    ]
    for raw, connected in sent:
        shown = tables.overlay("m", raw, connected)
        assert shown == overlay(raw, connected)
        if b'"players"' in raw:
            assert [p["connected"] for p in msgspec.json.decode(shown)["players"]] == [0 in connected, 1 in connected]
    assert tables.overlay("other", sent[0][0], frozenset({1})) == overlay(sent[0][0], frozenset({1}))
    tables.forget("m")
    assert tables.overlay("m", sent[4][0], frozenset({0})) == overlay(sent[4][0], frozenset({0}))
