// A client in 50 lines of node (18+, no packages): create a match, follow your seat's stream, send
// an element of `legal` on each view, to the end. Run: node client.mjs [BASE_URL] [GAME]
const BASE = process.argv[2] ?? "http://127.0.0.1:8000";
const GAME = process.argv[3] ?? "heros-tavern";

async function call(method, path, body, token) {
  const headers = { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const answer = await fetch(BASE + path, { method, headers, body: body && JSON.stringify(body) });
  return [answer.status, await answer.json()]; // 4xx: {error: {code, message}}
}

// The seat's view envelopes from its SSE stream, resumed with Last-Event-ID if it drops.
async function* views(matchId, token) {
  let lastId = 0;
  for (;;) {
    try {
      const headers = { Authorization: `Bearer ${token}`, "Last-Event-ID": String(lastId) };
      const stream = await fetch(`${BASE}/v1/matches/${matchId}/stream`, { headers });
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of stream.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) { // a blank line ends an event
          const lines = buffer.slice(0, end).split("\n"); // ": keepalive" comments carry no data
          buffer = buffer.slice(end + 2);
          const id = lines.find((line) => line.startsWith("id: ")); // views have ids, "presence" events none
          const data = lines.find((line) => line.startsWith("data: "));
          if (id) lastId = Number(id.slice(4));
          if (id && data) yield JSON.parse(data.slice(6));
        }
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500)); // then only views after lastId come
    }
  }
}

const games = Object.fromEntries((await call("GET", "/v1/games"))[1].map((game) => [game.id, game]));
const seats = games[GAME].min_seats;
const bots = Array.from({ length: seats - 1 }, (_, index) => index + 1);
const [, created] = await call("POST", "/v1/matches", { game: GAME, seats, bots });
const token = created.seats[0].token;
let accepted = 0; // the version our last 200 named: a view below it predates our own move, skip it
for await (const view of views(created.match_id, token)) {
  if (view.status === "finished") {
    console.log(JSON.stringify({ version: view.version, result: view.result }));
    break;
  }
  if (view.version < accepted || view.legal.length === 0) continue;
  const command = view.legal[Math.floor(Math.random() * view.legal.length)];
  const [status, answer] = await call("POST", `/v1/matches/${created.match_id}/commands`, command, token);
  if (status === 200) accepted = answer.version; // 422/409: a newer view is coming
}
