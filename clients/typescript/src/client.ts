// The client over fetch. Every type comes from ./api.ts, which openapi-typescript generates from
// the service's /openapi.json with its default settings (`make clients` regenerates it).
import type { components, paths } from "./api.js";

/** The API's version this package was generated from (info.version of /openapi.json). */
export const API_VERSION = "1";

export type Schemas = components["schemas"];
export type GameId = Schemas["CreateMatch"]["game"];
export type CreateMatch = Schemas["CreateMatch"];
export type MatchCreated = Schemas["MatchCreated"];
export type ErrorBody = Schemas["ErrorBody"];
export type GameInfo = Schemas["GameInfo"];
export type TablePlayer = Schemas["TablePlayer"];
/** The body of POST .../commands: a command of any game (the match's game decides). */
export type Command = Schemas["Command"];
/** A game's view envelope; without a game, the union of the four (discriminated by `game`). */
export type ViewEnvelope<G extends GameId = GameId> = Schemas[`${G}.ViewEnvelope`];
/** A game's commands: the elements of its views' `legal`. */
export type GameCommand<G extends GameId = GameId> = Schemas[`${G}.Command`];
export type Accepted<G extends GameId = GameId> = Schemas[`${G}.Accepted`];
export type EventEnvelope<G extends GameId = GameId> = Schemas[`${G}.EventEnvelope`];
export type Frame<G extends GameId = GameId> = Schemas[`${G}.Frame`];

type Json<R> = R extends { content: { "application/json": infer T } } ? T : never;
/** The JSON of an operation's 200 or 201 answer. */
export type Answer<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 ? Json<R[S]> : never }[keyof R]
  : never;
/** The JSON body an operation takes. */
export type Body<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** An answer that is not a success: its HTTP status, the API's error code and the whole body. */
export class TavernError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: ErrorBody | undefined,
    readonly retryAfter: number | undefined,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "TavernError";
  }

  static async of(response: Response): Promise<TavernError> {
    const text = await response.text();
    let body: ErrorBody | undefined;
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      body = undefined; // a proxy's page (502, 504): not the service's JSON
    }
    const retry = response.headers.get("retry-after");
    const code = body?.error.code ?? "http_error";
    return new TavernError(response.status, code, body?.error.message ?? text.slice(0, 200), body, retry === null ? undefined : Number(retry));
  }
}

/**
 * Answers sent again (a command under the same Idempotency-Key) after Retry-After, else after a
 * second, doubling: a rate passed, or the service or the proxy in front of it unavailable (docs/API.md).
 */
export const RETRYABLE: readonly number[] = [429, 502, 503, 504];
/** A command's tries after its first: 1 + 2 + 4 + 8 s without Retry-After. */
export const RESENDS = 4;

export interface ClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8000 */
  baseUrl: string;
  /** A seat's or spectator's token (a match's endpoints), or a player's (the lobby's). */
  token?: string;
  /** X-API-Key, where the service requires one to create matches. */
  apiKey?: string;
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
}

export interface SendOptions {
  /** Sent again with the same key, the command has one effect and the first answer comes back. */
  idempotencyKey?: string;
  /** `Prefer: handling=strict`: every stale expected_version is a 409. */
  strict?: boolean;
}

type MatchPath = `/v1/matches/${string}`;

/** The API's endpoints. A match's take the client's token: `client.as(token)` gives one with another. */
export class TavernClient {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly apiKey: string | undefined;
  readonly fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.apiKey = options.apiKey;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The same client with another token. */
  as(token: string): TavernClient {
    return new TavernClient({ baseUrl: this.baseUrl, token, apiKey: this.apiKey, fetch: this.fetch });
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { ...extra };
    if (this.token !== undefined) headers["Authorization"] = `Bearer ${this.token}`;
    if (this.apiKey !== undefined) headers["X-API-Key"] = this.apiKey;
    return headers;
  }

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    }
    const response = await this.fetch(this.baseUrl + path, init);
    if (!response.ok) throw await TavernError.of(response);
    return (await response.json()) as T;
  }

  games(): Promise<Answer<paths["/v1/games"]["get"]>> {
    return this.request("GET", "/v1/games");
  }

  content(gameId: GameId): Promise<Answer<paths["/v1/games/{game_id}/content"]["get"]>> {
    return this.request("GET", `/v1/games/${encodeURIComponent(gameId)}/content`);
  }

  createMatch(body: Body<paths["/v1/matches"]["post"]>): Promise<MatchCreated> {
    return this.request("POST", "/v1/matches", body);
  }

  /** The caller's view; `G` is the match's game, if the caller knows it. */
  view<G extends GameId = GameId>(matchId: string): Promise<ViewEnvelope<G>> {
    return this.request("GET", `${match(matchId)}/view`);
  }

  /**
   * Sends a command: an element of the seat's `legal`, optionally with `expected_version`. Under
   * the key given or one of its own: answered 429, 502, 503 or 504, or cut before its answer (a
   * network error), it is sent again under that key, so it has one effect (up to RESENDS times).
   */
  async send<G extends GameId = GameId>(matchId: string, command: Command, options: SendOptions = {}): Promise<Accepted<G>> {
    const headers: Record<string, string> = { "Idempotency-Key": options.idempotencyKey ?? crypto.randomUUID() };
    if (options.strict) headers["Prefer"] = "handling=strict";
    let backoff = 1;
    for (let left = RESENDS; ; left--) {
      try {
        return await this.request("POST", `${match(matchId)}/commands`, command, headers);
      } catch (problem) {
        // fetch rejects with a TypeError when the connection fails or is cut
        const again = problem instanceof TavernError ? RETRYABLE.includes(problem.status) : problem instanceof TypeError;
        if (left === 0 || !again) throw problem;
        const wait = problem instanceof TavernError && problem.retryAfter !== undefined ? problem.retryAfter : backoff;
        backoff *= 2;
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
    }
  }

  events<G extends GameId = GameId>(matchId: string, after = 0): Promise<EventEnvelope<G>[]> {
    return this.request("GET", `${match(matchId)}/events?after=${after}`);
  }

  replay<G extends GameId = GameId>(matchId: string, seat?: number): Promise<Frame<G>[]> {
    return this.request("GET", `${match(matchId)}/replay${seat === undefined ? "" : `?seat=${seat}`}`);
  }

  /** The finished match's export, JSON Lines (docs/AUDIT.md). */
  async export(matchId: string): Promise<string> {
    const response = await this.fetch(`${this.baseUrl}${match(matchId)}/export`, { headers: this.headers() });
    if (!response.ok) throw await TavernError.of(response);
    return response.text();
  }

  entropy(matchId: string, entropy: string): Promise<Answer<paths["/v1/matches/{match_id}/entropy"]["post"]>> {
    return this.request("POST", `${match(matchId)}/entropy`, { entropy });
  }

  createPlayer(name: string): Promise<Answer<paths["/v1/players"]["post"]>> {
    return this.request("POST", "/v1/players", { name });
  }

  player(playerId: string): Promise<Answer<paths["/v1/players/{player_id}"]["get"]>> {
    return this.request("GET", `/v1/players/${encodeURIComponent(playerId)}`);
  }

  lobby(query: { game?: GameId; offset?: number; limit?: number } = {}): Promise<Answer<paths["/v1/lobby"]["get"]>> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.request("GET", `/v1/lobby${search.size ? `?${search}` : ""}`);
  }

  /** With a player's token: takes a free seat; its token is in the answer. */
  join(matchId: string, body: Body<paths["/v1/matches/{match_id}/join"]["post"]>): Promise<Answer<paths["/v1/matches/{match_id}/join"]["post"]>> {
    return this.request("POST", `${match(matchId)}/join`, body);
  }

  leave(matchId: string): Promise<Answer<paths["/v1/matches/{match_id}/leave"]["post"]>> {
    return this.request("POST", `${match(matchId)}/leave`);
  }

  start(matchId: string): Promise<Answer<paths["/v1/matches/{match_id}/start"]["post"]>> {
    return this.request("POST", `${match(matchId)}/start`);
  }

  rematch(matchId: string): Promise<Answer<paths["/v1/matches/{match_id}/rematch"]["post"]>> {
    return this.request("POST", `${match(matchId)}/rematch`);
  }

  leaderboard(gameId: GameId): Promise<Answer<paths["/v1/games/{game_id}/leaderboard"]["get"]>> {
    return this.request("GET", `/v1/games/${encodeURIComponent(gameId)}/leaderboard`);
  }
}

function match(matchId: string): MatchPath {
  return `/v1/matches/${encodeURIComponent(matchId)}`;
}
