"""A client in 50 lines of the standard library: create a match, follow your seat's stream, send
an element of `legal` on each view, to the end. Run: python client.py [BASE_URL] [GAME]"""

import json
import random
import sys
import urllib.error
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
GAME = sys.argv[2] if len(sys.argv) > 2 else "heros-tavern"


def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(BASE + path, data, headers, method=method)) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:  # 4xx: {"error": {"code", "message"}}
        return refused.code, json.load(refused)


def views(match_id, token):
    """The seat's view envelopes from its SSE stream, resumed with Last-Event-ID if it drops."""
    last_id = 0
    while True:
        headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": str(last_id)}
        request = urllib.request.Request(f"{BASE}/v1/matches/{match_id}/stream", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as stream:  # keep-alives come every 15 s
                event = data = None
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("event: "):  # "view", or "presence" (who is connected now)
                        event = line[7:]
                    elif line.startswith("id: "):
                        last_id = int(line[4:])
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line == "":  # a blank line ends an event; ": keepalive" lines are skipped
                        if event == "view" and data:
                            yield json.loads(data)
                        event = data = None
        except (OSError, TimeoutError):
            continue  # reconnect: only views newer than last_id are sent


games = {game["id"]: game for game in call("GET", "/v1/games")[1]}
seats = games[GAME]["min_seats"]
_, created = call("POST", "/v1/matches", {"game": GAME, "seats": seats, "bots": list(range(1, seats))})
token, match_id, rng = created["seats"][0]["token"], created["match_id"], random.Random(1)
accepted = 0  # the version our last 200 named: a view below it predates our own move, skip it
for view in views(match_id, token):
    if view["status"] == "finished":
        print(json.dumps({"version": view["version"], "result": view["result"]}))
        break
    if view["version"] >= accepted and view["legal"]:
        status, answer = call("POST", f"/v1/matches/{match_id}/commands", rng.choice(view["legal"]), token)
        accepted = answer["version"] if status == 200 else accepted  # 422/409: a newer view is coming
