// The public API of API.md, and nothing else: JSON over fetch, and the SSE view stream read with
// fetch() because EventSource cannot send the Authorization header the gateway asks for. Every
// call asks for the player's language (Accept-Language): content, narration and errors come in it.
import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(`${code}: ${message}`);
    this.status = status;
    this.code = code;
    this.detail = message;
    this.body = body;
  }
}

async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: keep the status line
  }
  const error = (body && body.error) || { code: `http_${response.status}`, message: response.statusText };
  return new ApiError(response.status, error.code, error.message, body);
}

export async function call(path, { method = "GET", token = null, body = undefined, headers = {} } = {}) {
  const all = { Accept: "application/json", "Accept-Language": language(), ...headers };
  if (token) all.Authorization = `Bearer ${token}`;
  if (body !== undefined) all["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw await errorOf(response);
  return response.json();
}

export const games = () => call("/v1/games");
// with this browser's player token, if any: a deployment may ask creation for one (docs/LIMITS.md)
export const createMatch = (request, token = null) => call("/v1/matches", { method: "POST", body: request, token });
export const view = (id, token) => call(`/v1/matches/${id}/view`, { token });
export const events = (id, token, after) => call(`/v1/matches/${id}/events?after=${after}`, { token });
export const replay = (id, token, seat) =>
  call(`/v1/matches/${id}/replay${seat === null || seat === undefined ? "" : `?seat=${seat}`}`, { token });

// the table chat (docs/chat.md): the caller's channel, its token says which
export const chat = (id, token, after) => call(`/v1/matches/${id}/chat?after=${encodeURIComponent(after)}`, { token });
export const chatSay = (id, token, text, name) => call(`/v1/matches/${id}/chat`, { method: "POST", token, body: { text, name } });
export const chatBlock = (id, token, sender, blocked) =>
  call(`/v1/matches/${id}/chat/blocks`, { method: "POST", token, body: { sender, blocked } });
export const chatReport = (id, token, line, reason) =>
  call(`/v1/matches/${id}/chat/reports`, { method: "POST", token, body: { id: line, reason } });

export function sendCommand(id, token, command) {
  // a fresh Idempotency-Key per click: a retried request has one effect
  const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return call(`/v1/matches/${id}/commands`, { method: "POST", token, body: command, headers: { "Idempotency-Key": key } });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One SSE message block ("event: view\nid: 12\ndata: {...}") -> {event, id, data}
function parseBlock(block) {
  const message = { event: "message", id: null, data: [] };
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") message.data.push(value);
    else if (name === "id") message.id = value;
    else if (name === "event") message.event = value;
  }
  return message;
}

// Each Server-Sent Events message of a response, parsed, until the stream ends.
async function readMessages(response, onMessage) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const message = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      onMessage(message);
    }
  }
}

// The player's own events (GET /v1/events, docs/API.md): onEvent(type, data) for each, until
// close(); after a drop it opens again (the last 60 s of kept events come again: callers dedupe).
export function playerEvents(token, onEvent) {
  const controller = new AbortController();
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream" };
        const response = await fetch("/v1/events", { headers, signal: controller.signal, cache: "no-store" });
        if (!response.ok) return;
        await readMessages(response, (message) => {
          if (message.event && message.data.length) onEvent(message.event, JSON.parse(message.data.join("\n")));
        });
      } catch {
        // dropped or closed: the loop says which
      }
      await sleep(2000);
    }
  })();
  return { close: () => controller.abort() };
}

// Opens /stream and calls onView(envelope) for each newer view, onPresence({version, players}) when
// a seat's stream opens or closes, onChat({channel}) when the table chat has new lines; reconnects
// by itself (with Last-Event-ID) after a drop, backing off up to 8 s. onState("live" | "reconnecting" | "closed", error?).
export function openStream(id, token, { onView, onPresence, onChat, onState, lastId = 0 }) {
  const other = (message) => {
    if (!message.data.length) return;
    if (message.event === "presence") onPresence?.(JSON.parse(message.data.join("\n")));
    if (message.event === "chat") onChat?.(JSON.parse(message.data.join("\n")));
  };
  return follow(`/v1/matches/${id}/stream`, token, "view", { onData: onView, onOther: other, onState, lastId });
}

// Opens the player's inbox stream (GET /v1/players/me/inbox/stream) and calls onInbox(page) with
// the inbox at once and at each change; reconnects as openStream does.
export function openInbox(token, { onInbox, onState }) {
  return follow("/v1/players/me/inbox/stream", token, "inbox", { onData: onInbox, onState, lastId: -1 });
}

// An SSE stream read with fetch: onData(JSON) for each `kind` message whose id is newer than the
// last, onOther(message) for the others.
function follow(path, token, kind, { onData, onOther, onState, lastId }) {
  let stopped = false;
  let controller = null;
  let last = lastId;
  (async () => {
    let delay = 250;
    while (!stopped) {
      controller = new AbortController();
      try {
        const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream", "Accept-Language": language() };
        if (last > 0) headers["Last-Event-ID"] = String(last);
        const response = await fetch(path, { headers, signal: controller.signal, cache: "no-store" });
        if (!response.ok) {
          const error = await errorOf(response);
          if (response.status < 500) {
            onState("closed", error); // a wrong token or match will not heal by retrying
            return;
          }
          throw error;
        }
        onState("live");
        delay = 250;
        await readMessages(response, (message) => {
          if (message.event !== kind || !message.data.length) {
            onOther?.(message);
            return;
          }
          const id = Number(message.id);
          if (id <= last) return;
          last = id;
          onData(JSON.parse(message.data.join("\n")));
        });
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await sleep(delay);
      delay = Math.min(delay * 2, 8000);
    }
  })();
  return {
    close() {
      stopped = true;
      if (controller) controller.abort();
    },
    get lastId() {
      return last;
    },
  };
}

// GET /v1/games/{id}/content: every card, tile, space and track with its name, cost and effect text.
// It never changes while the server runs, so one fetch per game and language is enough (the server
// sends an ETag per language).
const contents = new Map();
export function content(game) {
  const key = `${language()}/${game}`;
  if (!contents.has(key)) contents.set(key, call(`/v1/games/${game}/content`).catch((error) => (contents.delete(key), Promise.reject(error))));
  return contents.get(key);
}
