"""/openapi.json describes every online-play route, and every reference in it resolves."""

from __future__ import annotations

import json
import re

from services.gateway import bots, online
from services.gateway.openapi import document


def test_every_online_route_is_in_the_document_with_its_methods():
    paths = document()["paths"]
    for route in [*online.ROUTES, *bots.ROUTES]:
        assert route.path in paths, route.path
        assert {method.lower() for method in route.methods - {"HEAD"}} <= set(paths[route.path])


def test_every_reference_resolves():
    doc = document()
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(doc)))
    assert {"LobbyPage", "Joined", "PlayerCreated", "LeaderboardRow", "TablePlayer"} <= refs | set(
        doc["components"]["schemas"]
    )
    assert refs <= set(doc["components"]["schemas"]), refs - set(doc["components"]["schemas"])
