// tavern-games-client: a typed client of the Tavern board-game service's HTTP API v1 (./client.ts)
// and its streams (./streams.ts), all typed by ./api.ts, generated from /openapi.json.
export type { components, paths } from "./api.js";
export * from "./client.js";
export * from "./streams.js";
