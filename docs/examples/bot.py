"""An outside bot for any of the four games (docs/bots.md), with httpx alone: one event stream
for its bot account tells it of challenges (it accepts each, and declines past MAX_MATCHES at
once), and of its turns in its matches, each with its seat's view: it sends a random element of
the view's `legal`.

Register the account once:  curl -XPOST $BASE/v1/players -d '{"name": "Rando Bot", "bot": true}'
Run:  python bot.py BASE_URL BOT_TOKEN [MATCHES]   (MATCHES: stop after that many finished, 0: never)
"""

import json
import random
import sys

import httpx

BASE, TOKEN = sys.argv[1], sys.argv[2]
MATCHES = int(sys.argv[3]) if len(sys.argv) > 3 else 0
MAX_MATCHES = 4  # matches played at once
GAMES = {"heros-tavern", "taverna", "tavern-masters", "mercenaries"}
api = httpx.Client(base_url=BASE, timeout=httpx.Timeout(10, read=60))  # keep-alives come every 15 s
me = {"Authorization": f"Bearer {TOKEN}"}


def events():
    """(event, data) of the account's SSE stream, resumed with Last-Event-ID whenever it drops."""
    last_id = None
    while True:
        headers = {**me, **({"Last-Event-ID": last_id} if last_id else {})}
        try:
            with api.stream("GET", "/v1/events", headers=headers) as stream:
                if stream.status_code == 401:
                    sys.exit("this token is no player's")
                name, data = None, None
                for line in stream.iter_lines():
                    field, _, value = line.partition(": ")
                    if field == "event":  # challenge, match_started, turn, match_finished, ...
                        name = value
                    elif field == "id":  # only events kept by the service have one (not turns)
                        last_id = value
                    elif field == "data":
                        data = value
                    elif line == "":  # a blank line ends an event; ": keepalive" lines are skipped
                        if name and data:
                            yield name, json.loads(data)
                        name, data = None, None
        except httpx.TransportError:
            continue  # reconnect: the kept events newer than last_id are sent again, turns anew


tokens = {}  # match id -> our seat's token (the accept's answer: sent this once)
acted = {}  # match id -> the version our last accepted command made: an older view is stale
finished = 0
for name, event in events():
    if name == "challenge":
        url = f"/v1/challenges/{event['challenge']['challenge_id']}"
        if event["challenge"]["game"] not in GAMES or len(tokens) >= MAX_MATCHES:
            api.post(f"{url}/decline", headers=me)
            continue
        answer = api.post(f"{url}/accept", headers=me)  # 409 if answered already (an event sent again)
        if answer.status_code == 200:
            tokens[answer.json()["match_id"]] = answer.json()["token"]
    elif name in ("turn", "match_finished") and event["match_id"] in tokens:
        match_id, view = event["match_id"], event["view"]  # the seat's view, as GET .../view answers it
        seat = {"Authorization": f"Bearer {tokens[match_id]}"}
        if view["status"] == "finished":
            print(json.dumps({"match_id": match_id, "seat": view["seat"], "result": view["result"]}), flush=True)
            del tokens[match_id]
            finished += 1
            if finished == MATCHES:
                break
        elif view["legal"] and view["version"] >= acted.get(match_id, 0):
            command = random.Random(f"{match_id}:{view['version']}").choice(view["legal"])
            sent = api.post(f"/v1/matches/{match_id}/commands", json=command, headers=seat)
            if sent.status_code == 200:  # else (409, 422) a newer view, and a new turn, is coming
                acted[match_id] = sent.json()["version"]
