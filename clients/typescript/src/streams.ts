// A match's streams (GET /asyncapi.json describes both): Server-Sent Events over fetch, which
// unlike EventSource can send the Authorization header, and a WebSocket that also carries the
// seat's commands. Both resume after a cut from the last view's version, and stop on a lost match.
import type { Command, ErrorBody, GameId, Schemas, TavernClient, ViewEnvelope } from "./client.js";
import { RETRYABLE, TavernError } from "./client.js";

/** Who has an open stream now (`presence` frames). */
export type Presence = Schemas["PresenceFrame"];

export type StreamEvent<G extends GameId = GameId> =
  | { event: "view"; id: number; view: ViewEnvelope<G> }
  | { event: "presence"; presence: Presence };

export interface StreamOptions {
  /** Resume: only views newer than this version (the `id` of the last view received). */
  lastEventId?: number;
  /** Stops the stream (the generator returns). */
  signal?: AbortSignal;
  /** Reconnect after a cut (a stopping gateway, a network error, 429, 502, 503 or 504): true by default. */
  reconnect?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The SSE events of a text/event-stream body: each `{event, id, data, retry}` (comments dropped). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, string>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let fields: Record<string, string> = {};
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "") {
          if (Object.keys(fields).length) yield fields;
          fields = {};
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          fields[name] = name === "data" && name in fields ? `${fields[name]}\n${value}` : value;
        }
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined); // the consumer left or the body ended (or was aborted): close it
  }
}

/**
 * The caller's views (and presence) of a match as Server-Sent Events, newest only, versions
 * increasing. After a cut it reconnects with Last-Event-ID (after the server's `retry:` delay) and
 * goes on where it was; a lost match throws a TavernError `match_lost`. Stop it with `signal` or
 * by leaving the `for await` loop.
 */
export async function* streamViews<G extends GameId = GameId>(
  client: TavernClient,
  matchId: string,
  options: StreamOptions = {},
): AsyncGenerator<StreamEvent<G>> {
  let last = options.lastEventId;
  let retryMs = 1000;
  const url = `${client.baseUrl}/v1/matches/${encodeURIComponent(matchId)}/stream`;
  const own = new AbortController(); // aborted when the consumer leaves: no request outlives the loop
  options.signal?.addEventListener("abort", () => own.abort());
  try {
    yield* follow();
  } finally {
    own.abort();
  }

  async function* follow(): AsyncGenerator<StreamEvent<G>> {
  while (!own.signal.aborted) {
    const headers = client.headers({ Accept: "text/event-stream" });
    if (last !== undefined) headers["Last-Event-ID"] = String(last);
    let response: Response;
    try {
      response = await client.fetch(url, { headers, signal: own.signal });
    } catch (problem) {
      if (own.signal.aborted) return;
      if (options.reconnect === false) throw problem;
      await sleep(retryMs, own.signal);
      continue;
    }
    if (!response.ok || response.body === null) {
      const refused = await TavernError.of(response);
      if (options.reconnect === false || !RETRYABLE.includes(refused.status)) throw refused;
      await sleep((refused.retryAfter ?? 1) * 1000, own.signal);
      continue;
    }
    try {
      for await (const fields of sseEvents(response.body)) {
        if (fields["retry"] !== undefined) retryMs = Number(fields["retry"]);
        const data = fields["data"];
        if (fields["event"] === "view" && data !== undefined) {
          last = Number(fields["id"]);
          yield { event: "view", id: last, view: JSON.parse(data) as ViewEnvelope<G> };
        } else if (fields["event"] === "presence" && data !== undefined) {
          yield { event: "presence", presence: JSON.parse(data) as Presence };
        } else if (fields["event"] === "lost" && data !== undefined) {
          const body = JSON.parse(data) as ErrorBody;
          throw new TavernError(410, body.error.code, body.error.message, body, undefined);
        }
      }
    } catch (problem) {
      if (problem instanceof TavernError || own.signal.aborted) throw problem;
      if (options.reconnect === false) throw problem;
    }
    if (options.reconnect === false) return;
    await sleep(retryMs, own.signal); // the answer ended (a gateway stopping) or was cut
  }
  }
}

/** A view or presence frame of the socket. */
export type SocketEvent<G extends GameId = GameId> =
  | { kind: "view"; view: ViewEnvelope<G> }
  | { kind: "presence"; presence: Presence };

/** The answer to a command sent on the socket: what POST .../commands would answer. */
export type SocketAnswer = Schemas["WsAnswerFrame"];

// a handler's type checked as a method's (bivariantly), so that the DOM's and ws's, each taking
// its own richer event, both fit
type Handler<E> = { handle(event: E): void }["handle"];

/** The parts of a WebSocket the helper uses: the browser's, or node's `ws` package. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<{ code: number; reason: string }> | null;
  onopen: Handler<unknown> | null;
}

export type WebSocketFactory = new (url: string) => WebSocketLike;

export interface SocketOptions {
  /** Resume: only views newer than this version. */
  lastEventId?: number;
  /** The WebSocket class (the global one by default; in node 20, `ws`'s). */
  WebSocket?: WebSocketFactory;
  /** How long to wait before reconnecting after a cut, ms. */
  retryMs?: number;
}

interface Pending<G extends GameId> {
  message: string;
  resolve: (answer: SocketAnswer) => void;
  reject: (problem: unknown) => void;
}

/**
 * GET /v1/matches/{id}/ws: the views and presence as an async iterator (`for await (const e of
 * socket)`), and `send(command)` answered by a promise. A cut socket (1001: a gateway stopping, or
 * a dropped connection) reconnects with `last_event_id` and sends again the commands not answered
 * yet, each with its idempotency key, so each still has one effect. A refusal (44xx) ends it with
 * a TavernError of the close's reason: 4410 `match_lost`, 4401 `no_token`, ...
 */
export class MatchSocket<G extends GameId = GameId> implements AsyncIterable<SocketEvent<G>> {
  private socket: WebSocketLike | undefined;
  private last: number | undefined;
  private number = 0;
  private closed = false;
  private failure: TavernError | undefined;
  private readonly pending = new Map<string, Pending<G>>();
  private readonly events: SocketEvent<G>[] = [];
  private wake: (() => void) | undefined;

  constructor(
    readonly client: TavernClient,
    readonly matchId: string,
    private readonly options: SocketOptions = {},
  ) {
    this.last = options.lastEventId;
    this.connect();
  }

  private url(): string {
    const query = new URLSearchParams();
    if (this.client.token !== undefined) query.set("access_token", this.client.token);
    if (this.last !== undefined) query.set("last_event_id", String(this.last));
    const base = this.client.baseUrl.replace(/^http/, "ws");
    return `${base}/v1/matches/${encodeURIComponent(this.matchId)}/ws?${query}`;
  }

  private connect(): void {
    const Socket = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
    if (Socket === undefined) throw new Error("no WebSocket: pass options.WebSocket (node 20: the ws package)");
    const socket = new Socket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      for (const pending of this.pending.values()) socket.send(pending.message); // their keys make this safe
    };
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.closed) return;
      if (event.code >= 4000) {
        this.fail(new TavernError(event.code - 4000, event.reason, `the socket was closed: ${event.reason}`, undefined, undefined));
      } else {
        setTimeout(() => this.closed || this.connect(), this.options.retryMs ?? 1000);
      }
    };
  }

  private receive(text: string): void {
    const frame = JSON.parse(text) as SocketEvent<G> | SocketAnswer;
    if (frame.kind === "answer") {
      const pending = typeof frame.id === "string" ? this.pending.get(frame.id) : undefined;
      if (pending !== undefined && typeof frame.id === "string") {
        this.pending.delete(frame.id);
        pending.resolve(frame);
      }
      return;
    }
    if (frame.kind === "view") this.last = frame.view.version;
    this.events.push(frame);
    this.wake?.();
  }

  private fail(problem: TavernError): void {
    this.failure = problem;
    for (const pending of this.pending.values()) pending.reject(problem);
    this.pending.clear();
    this.wake?.();
  }

  /** Sends a command; the promise has its answer (any status: see `status`). `strict`: every
   * stale expected_version is a 409, as POST's `Prefer: handling=strict`. */
  send(command: Command, idempotencyKey: string = crypto.randomUUID(), strict = false): Promise<SocketAnswer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.number += 1;
    const id = `c${this.number}`;
    const handling = strict ? { handling: "strict" } : {};
    const message = JSON.stringify({ id, command, idempotency_key: idempotencyKey, ...handling });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { message, resolve, reject });
      if (this.socket !== undefined && this.socket.readyState === 1) this.socket.send(message);
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.close(1000);
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SocketEvent<G>> {
    for (;;) {
      const next = this.events.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
