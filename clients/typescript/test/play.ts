// Plays a Tavern Masters match (Dirty Deeds, cooperative, 2 rounds) to the end through the package, as
// a frontend would: seat 0 follows its Server-Sent Events and POSTs its commands, seat 1 plays on
// the WebSocket, seat 2 is the service's bot. Each seat sends a random element of `legal` on each
// view not older than its last accepted command. Run by tests/service/contract/test_typescript_client.py:
// node dist-test/test/play.js BASE_URL SEED; prints one line of JSON at the end.
import { WebSocket } from "ws";
import { MatchSocket, TavernClient, TavernError, streamViews } from "tavern-games-client";
import type { Command, GameCommand, ViewEnvelope } from "tavern-games-client";

type Game = "tavern-masters";
const [baseUrl = "", seedText = "1"] = process.argv.slice(2);
let seed = Number(seedText);
function pick<T>(items: readonly T[]): T {
  seed = (seed * 1103515245 + 12345) % 2147483648; // a small seeded LCG: the run can be replayed
  const item = items[seed % items.length];
  if (item === undefined) throw new Error("nothing to pick");
  return item;
}

function chosen(view: ViewEnvelope<Game>): Command {
  const command: GameCommand<Game> = pick(view.legal);
  return { ...command, expected_version: view.version };
}

const service = new TavernClient({ baseUrl });
const created = await service.createMatch({
  game: "tavern-masters",
  seats: 3,
  options: { dirty_deeds: true, mode: "cooperative", challenge: "wasted" }, // two rounds: a short match
  bots: [2],
});
const seat = (n: number): TavernClient => {
  const token = created.seats.find((s) => s.seat === n)?.token;
  if (token === undefined) throw new Error(`no token for seat ${n}`);
  return service.as(token);
};

async function overSse(client: TavernClient): Promise<{ final: ViewEnvelope<Game>; sent: number; resumedAt: number }> {
  let heard = 0;
  let sent = 0;
  let last = -1;
  let resumedAt = -1;
  const cut = new AbortController();
  for (let round = 0; round < 2; round++) {
    const options = round === 0 ? { signal: cut.signal } : { lastEventId: last };
    for await (const event of streamViews<Game>(client, created.match_id, options)) {
      if (event.event !== "view") continue;
      if (event.id <= last) throw new Error(`view ${event.id} after ${last}`); // resumed: nothing older
      if (round === 1 && resumedAt < 0) resumedAt = event.id;
      last = event.id;
      const view = event.view;
      if (view.status === "finished") return { final: view, sent, resumedAt };
      if (round === 0 && sent === 5) {
        cut.abort(); // the connection drops: resume from the last id
        break;
      }
      if (view.version < heard || view.legal.length === 0) continue;
      try {
        const accepted = await client.send<Game>(created.match_id, chosen(view));
        heard = Math.max(heard, accepted.version);
        sent += 1;
      } catch (problem) {
        // the match moved on between the view and the command (another seat, the bot)
        if (!(problem instanceof TavernError) || ![409, 422].includes(problem.status)) throw problem;
      }
    }
  }
  throw new Error("the stream ended before the match");
}

async function overSocket(client: TavernClient): Promise<{ final: ViewEnvelope<Game>; sent: number }> {
  const socket = new MatchSocket<Game>(client, created.match_id, { WebSocket });
  let heard = 0;
  let sent = 0;
  let answer: Promise<void> = Promise.resolve();
  // strict, as POST's Prefer: handling=strict: a 409 on any stale version, chosen again from the view
  // the 409 carries when it is newer (the socket may have sent that view already)
  const act = async (view: ViewEnvelope<Game>): Promise<void> => {
    const reply = await socket.send(chosen(view), crypto.randomUUID(), true);
    if (reply.status === 200 && "receipt" in reply.body) {
      heard = Math.max(heard, reply.body.version);
      sent += 1;
    } else if (reply.status === 409 && "error" in reply.body) {
      const newer = reply.body.view as ViewEnvelope<Game> | null;
      heard = Math.max(heard, reply.body.version ?? 0);
      if (newer !== null && newer.version > view.version && newer.status !== "finished" && newer.legal.length > 0) {
        await act(newer);
      }
    } else if (reply.status !== 422) {
      throw new Error(`answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
  };
  try {
    for await (const event of socket) {
      if (event.kind !== "view") continue;
      const view = event.view;
      if (view.status === "finished") {
        await answer;
        return { final: view, sent };
      }
      await answer; // one command at a time
      if (view.version < heard || view.legal.length === 0) continue;
      answer = act(view);
    }
  } finally {
    socket.close();
  }
  throw new Error("the socket ended before the match");
}

const [sse, ws] = await Promise.all([overSse(seat(0)), overSocket(seat(1))]);
const spectator = await service.as(created.spectator_token).view<Game>(created.match_id);
console.log(
  JSON.stringify({
    match_id: created.match_id,
    status: spectator.status,
    version: spectator.version,
    versions: [sse.final.version, ws.final.version],
    sent: [sse.sent, ws.sent],
    resumed_at: sse.resumedAt,
    result: spectator.result,
    dirty_deeds: spectator.view.dirty_deeds ?? null,
    mode: spectator.view.mode ?? null,
  }),
);
