// What a proxy or a failover answers, played by a stand-in fetch (no service): a command is sent
// again under one Idempotency-Key after 429, 502, 503, 504 and a cut connection, and not after a
// 409; a stream reconnects after the same answers (docs/API.md, "Sending again"). Run by
// tests/service/contract/test_typescript_client.py: node dist-test/test/resend.js; prints one line of JSON.
import { RESENDS, TavernClient, TavernError, streamViews } from "tavern-games-client";

type Answer = Response | "cut";

/** A proxy's page (502, 504: not JSON) or the service's refusal (429, 503), to come back at once. */
function unavailable(status: number): Response {
  const json = status === 429 || status === 503;
  const body = json ? JSON.stringify({ error: { code: "unavailable", message: "later" } }) : "<html>bad gateway</html>";
  return new Response(body, { status, headers: { "Retry-After": "0" } });
}

/** A client whose requests get `answers` in turn; the headers of each request kept in `seen`. */
function standingIn(answers: Answer[], seen: Headers[]): TavernClient {
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push(new Headers(init?.headers));
    const answer = answers[seen.length - 1];
    if (answer === undefined) throw new Error("asked once too often");
    if (answer === "cut") throw new TypeError("fetch failed"); // what fetch rejects with on a cut
    return answer;
  };
  return new TavernClient({ baseUrl: "http://tavern.test", token: "seat-token", fetch: fetch as typeof globalThis.fetch });
}

const accepted = (): Response => Response.json({ version: 7, events: [], receipt: "r" });
const keys = (seen: Headers[]): string[] => [...new Set(seen.map((headers) => headers.get("Idempotency-Key") ?? ""))];

const sent: Headers[] = [];
const unavailableThenAccepted = [502, 503, 504, 429].map(unavailable);
const command = { type: "pass" } as never;
const version = (await standingIn([...unavailableThenAccepted, accepted()], sent).send("m", command)).version;

const cut: Headers[] = [];
await standingIn(["cut", accepted()], cut).send("m", command, { idempotencyKey: "k-1" });

async function refusal(answers: Answer[], seen: Headers[]): Promise<number> {
  try {
    await standingIn(answers, seen).send("m", command);
  } catch (problem) {
    if (problem instanceof TavernError) return problem.status;
    throw problem;
  }
  throw new Error("not refused");
}
const conflicted: Headers[] = [];
const conflict = await refusal([Response.json({ error: { code: "stale_version", message: "moved on" } }, { status: 409 })], conflicted);
const tooOften: Headers[] = [];
const lastRefusal = await refusal(Array.from({ length: RESENDS + 1 }, () => unavailable(502)), tooOften);

const streamed: Headers[] = [];
const presence = { match_id: "m", version: 3, players: [] };
const sse = new Response(`event: presence\ndata: ${JSON.stringify(presence)}\n\n`, {
  headers: { "Content-Type": "text/event-stream" },
});
let first: unknown;
for await (const event of streamViews(standingIn([...[502, 503, 504, 429].map(unavailable), sse], streamed), "m")) {
  first = event;
  break;
}

console.log(
  JSON.stringify({
    sent: { requests: sent.length, keys: keys(sent).length, version },
    cut: { requests: cut.length, keys: keys(cut) },
    conflict: { status: conflict, requests: conflicted.length },
    too_often: { status: lastRefusal, requests: tooOften.length, resends: RESENDS },
    stream: { requests: streamed.length, first },
  }),
);
