// The reference web client: a lobby, a live table per match, and a replay, over the public API
// (API.md) only. Routes live in the URL fragment, tokens too (a fragment never reaches a server):
//   #/                          the lobby
//   #/match/ID?token=T          a seat's (or the spectator's) live table (&table=generic: the plain panels)
//   #/replay/ID?token=T&seat=N  a replay with a scrubber, from seat N's chair once the match is over
import * as api from "./api.js";
import * as online from "./online.js";
import * as generic from "./tables/generic.js";
import { Context, closeMenus, closeStaleMenus, decorate, h, humanise, movesBar, useContent } from "./ui.js";

const app = document.getElementById("app");
const STORE = "tavern.matches";
let leave = () => {}; // closes the current page's stream when the route changes
let generation = 0; // bumped by each route change: a page still loading for an older route draws nothing
const stale = (gen) => gen !== generation;

// ---- saved matches (the API has no listing endpoint; this browser remembers what it created or joined)

function saved() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || [];
  } catch {
    return [];
  }
}

function remember(record) {
  const others = saved().filter((m) => m.match_id !== record.match_id);
  localStorage.setItem(STORE, JSON.stringify([record, ...others].slice(0, 30)));
}

function known(id) {
  return saved().find((m) => m.match_id === id) || null;
}

function seatNamer(record) {
  const bots = new Set(record?.bots || []);
  return (seat) => `Player ${seat + 1}${bots.has(seat) ? " (bot)" : ""}`;
}

const matchLink = (id, token) => `#/match/${id}?token=${encodeURIComponent(token)}`;
const replayLink = (id, token, seat = null) => `#/replay/${id}?token=${encodeURIComponent(token)}${seat === null ? "" : `&seat=${seat}`}`;
const absolute = (fragment) => `${location.origin}${location.pathname}${fragment}`;

// ---- game tables: a dedicated module per game when there is one, else the generic table

const tables = new Map();
async function tableFor(game) {
  if (!tables.has(game)) {
    tables.set(
      game,
      import(`./tables/${game}.js`).catch(() => generic), // a game without its own table yet is still playable
    );
  }
  return tables.get(game);
}

let catalogue = null;
async function gameList() {
  catalogue ??= await api.games();
  return catalogue;
}

// ---- messages

function errorBox(error) {
  if (!error) return h("div#error.error", { hidden: true });
  const code = error.code || "error";
  return h(
    "div#error.error",
    { role: "alert", dataset: { code } },
    h("strong", {}, error.status === 422 ? "Refused: " : `Error ${error.status || ""}: `),
    h("code.code", {}, code),
    " — ",
    h("span.message", {}, error.detail || error.message),
  );
}

function showError(error) {
  const old = document.getElementById("error");
  const box = errorBox(error);
  if (old) old.replaceWith(box);
  else app.prepend(box);
}

// ---- the lobby

function optionField(option) {
  const select = h("select", { name: option.name, dataset: { option: option.name } },
    option.choices.map((choice) => h("option", { value: JSON.stringify(choice), selected: choice === option.default }, String(choice))));
  return h("label.field", {}, humanise(option.name), select);
}

function createForm(list) {
  const gameSelect = h("select#game", { name: "game" }, list.map((g) => h("option", { value: g.id }, g.name)));
  const seatsInput = h("input#seats", { type: "number", name: "seats" });
  const optionsBox = h("div.options");
  const botsBox = h("div.bots");
  const botKind = h("select#bot", { name: "bot" });
  const info = () => list.find((g) => g.id === gameSelect.value);
  const drawBots = () => {
    const count = Number(seatsInput.value);
    const before = [...botsBox.querySelectorAll("input")].map((box) => box.checked);
    botsBox.replaceChildren(
      h("span.field-name", {}, "Bots at"),
      ...Array.from({ length: count }, (_, seat) =>
        h("label.bot-seat", {}, h("input", { type: "checkbox", dataset: { seat }, checked: before[seat] ?? seat > 0 }), `Player ${seat + 1}`)),
    );
  };
  const drawGame = () => {
    const g = info();
    Object.assign(seatsInput, { min: g.min_seats, max: g.max_seats, value: Math.min(Math.max(Number(seatsInput.value) || g.min_seats, g.min_seats), g.max_seats) });
    optionsBox.replaceChildren(...g.options.map(optionField));
    botKind.replaceChildren(...g.bots.map((b) => h("option", { value: b, selected: b === "greedy" }, b)));
    botsBox.replaceChildren();
    drawBots();
  };
  gameSelect.addEventListener("change", drawGame);
  seatsInput.addEventListener("input", drawBots);
  const submit = async (event) => {
    event.preventDefault();
    const g = info();
    const options = Object.fromEntries([...optionsBox.querySelectorAll("select")].map((s) => [s.dataset.option, JSON.parse(s.value)]));
    const bots = [...botsBox.querySelectorAll("input:checked")].map((box) => Number(box.dataset.seat));
    const request = { game: g.id, seats: Number(seatsInput.value), options, bots };
    if (bots.length) request.bot = botKind.value;
    try {
      const created = await api.createMatch(request, online.me()?.token);
      remember({ ...created, game: g.id, name: g.name, bots, options, created_at: new Date().toISOString() });
      location.hash = `#/created/${created.match_id}`;
    } catch (error) {
      showError(error);
    }
  };
  const form = h(
    "form#create.panel",
    { onsubmit: submit },
    h("h2", {}, "New match"),
    h("label.field", {}, "Game", gameSelect),
    h("label.field", {}, "Seats", seatsInput),
    optionsBox,
    botsBox,
    h("label.field", {}, "Bot", botKind),
    h("button#create-match.primary", { type: "submit" }, "Create match"),
  );
  drawGame();
  return form;
}

function linksOf(record) {
  const namer = seatNamer(record);
  return h(
    "ul.links",
    {},
    record.seats.map(({ seat, token }) =>
      h(
        "li",
        { dataset: { seat } },
        h("span.who", {}, namer(seat)),
        h("a.join", { href: matchLink(record.match_id, token) }, record.bots?.includes(seat) ? "watch its seat" : "play"),
        h("input.share", { readonly: true, value: absolute(matchLink(record.match_id, token)), onfocus: (e) => e.target.select() }),
      ),
    ),
    record.spectator_token && h(
      "li",
      {},
      h("span.who", {}, "Spectators"),
      h("a.spectate", { href: matchLink(record.match_id, record.spectator_token) }, "watch"),
      h("input.share", { readonly: true, value: absolute(matchLink(record.match_id, record.spectator_token)), onfocus: (e) => e.target.select() }),
    ),
  );
}

function recentList() {
  const records = saved();
  const rows = records.map((record, index) => {
    const status = h("span.status", {}, index < 10 ? "…" : "");
    const token = record.spectator_token || record.seats[0]?.token; // a joined seat has no spectator token
    if (index < 10) {
      api.view(record.match_id, token).then(
        (env) => (status.textContent = `${env.status}, version ${env.version}`),
        (error) => (status.textContent = error.code === "no_such_match" ? "gone (the server restarted?)" : error.code),
      );
    }
    return h(
      "li.recent",
      { dataset: { match: record.match_id } },
      h("strong", {}, record.name || record.game),
      ` ${record.match_id} · ${new Date(record.created_at).toLocaleString()} · `,
      status,
      " · ",
      h("a", { href: `#/created/${record.match_id}` }, "links"),
      " · ",
      h("a", { href: replayLink(record.match_id, token) }, "replay"),
    );
  });
  return h("section.panel.recent-list", {}, h("h2", {}, "Recent matches (this browser)"), rows.length ? h("ul", {}, rows) : h("p", {}, "None yet."));
}

async function showLobby(gen) {
  const list = await gameList();
  if (stale(gen)) return;
  app.replaceChildren(
    errorBox(null),
    online.lobbyPanel(list, remember, showError),
    h("div.lobby", {}, createForm(list), recentList()),
    h("p.hint", {}, "Everything here uses the public API (", h("a", { href: "/openapi.json" }, "openapi.json"), "). Games: ",
      list.map((g) => `${g.name} (${g.min_seats === g.max_seats ? g.min_seats : `${g.min_seats}–${g.max_seats}`} seats)`).join(", "), "."),
  );
}

function showCreated(id) {
  const record = known(id);
  if (!record) {
    location.hash = "#/";
    return;
  }
  const first = record.seats.find((s) => !record.bots.includes(s.seat));
  app.replaceChildren(
    errorBox(null),
    h(
      "section.panel.created",
      {},
      h("h2", {}, `${record.name} — match ${id}`),
      h("p", {}, "Send each player their own link: the token in it is the only proof of a seat."),
      linksOf(record),
      h("p.commitment", {}, "Seed commitment: ", h("code", {}, record.seed_commitment)),
      first ? h("a.primary.big", { href: matchLink(id, first.token), id: "take-seat" }, `Take ${seatNamer(record)(first.seat)}'s seat`) : null,
    ),
  );
}

// ---- the live table

// A game's own table, or the generic one if it cannot draw this view (a view that changed shape
// must not leave a player without a table); the failure goes to the console for its author.
function drawTable(table, view, ctx) {
  if (table === generic) return generic.render(view, ctx);
  try {
    return table.render(view, ctx);
  } catch (error) {
    console.error("table failed:", error);
    ctx.claimed.clear();
    return h("div", {}, h("p.hint", {}, "This game's table could not draw this view; the plain view follows."), generic.render(view, ctx));
  }
}

// One line of "what happened": the server's narration of the event, as this seat may read it.
function eventLine(item) {
  return h("li", { dataset: { version: item.version } }, h("span.v", {}, String(item.version)), item.narration || humanise(item.type));
}

// The event log beside the table: GET /events?after=N each time the view moves on.
function eventLog(id, token, announce) {
  const list = h("ol.log-list");
  const box = h("section#log.log", { "aria-label": "What happened", tabindex: 0 }, h("h3", {}, "What happened"), list);
  let seen = 0;
  let queue = Promise.resolve();
  const catchUp = (version) => {
    queue = queue.then(async () => {
      if (version <= seen) return;
      const items = await api.events(id, token, seen).catch(() => []);
      for (const item of items) {
        if (item.version <= seen) continue;
        seen = item.version;
        list.prepend(eventLine(item));
        if (item.narration) announce(item.narration);
      }
      while (list.children.length > 30) list.lastChild.remove();
    });
  };
  return { box, catchUp };
}

const TABLE_OUTCOMES = { table_won: "The table won together!", table_lost: "The table lost together.", won: "Won: the goal was reached!", lost: "Lost: the goal was not reached." };

function resultBox(result, namer, view) {
  if (!result) return null;
  const standings = [...(result.standings || [])].sort((a, b) => a.rank - b.rank);
  const together = TABLE_OUTCOMES[view?.outcome];
  return h(
    "section#result.panel.result",
    {},
    h("h2", {}, together || (result.winners?.length ? `${result.winners.map(namer).join(" and ")} ${result.winners.length > 1 ? "win" : "wins"}!` : "The match is over")),
    h("ol.standings", {}, standings.map((s) => h("li", { dataset: { seat: s.seat } }, `${namer(s.seat)} — score ${s.score}${s.tiebreak ? ` (tiebreak ${s.tiebreak})` : ""}`))),
  );
}

async function showMatch(id, token, tableName, gen) {
  const record = known(id);
  const page = { env: null, pending: false, awaited: 0, connection: "connecting", error: null };
  const namer = (seat) => online.seatName(page.env, record)(seat); // the names the envelope carries
  const connection = h("span#connection.connection", {}, "connecting");
  const statusLine = h("div#status.status-line");
  const tableBox = h("div#table", { dataset: { version: "-1" } });
  const header = h("header.match-head");
  // one polite live region: "your move" and each narrated event, for screen readers
  const live = h("div#announce.sr-only", { "aria-live": "polite", role: "status" });
  const announce = (text) => {
    live.textContent = "";
    setTimeout(() => (live.textContent = text), 50);
  };
  const log = eventLog(id, token, announce);
  const rules = h("details#rules.rules", {}, h("summary", {}, "How to play (rules in short)"));
  app.replaceChildren(header, errorBox(null), live, statusLine, h("div.match-body", {}, tableBox, h("aside.side", {}, rules, log.box)));
  let yourMove = false;

  const act = async (command) => {
    if (page.pending) return;
    closeMenus();
    page.pending = true;
    tableBox.dataset.pending = "true";
    try {
      const answer = await api.sendCommand(id, token, command);
      page.awaited = answer.version;
      showError(null);
      // the stream may have brought this version (or a later one) before the answer came back
      if (page.env.version >= answer.version) page.pending = false;
      else setTimeout(() => refetch(answer.version), 2000); // in case the stream is slow
    } catch (error) {
      page.pending = false;
      showError(error);
      // refused (422) or stale (409): the table may have moved on without this browser; fetch it fresh
      if (error.status === 409 || error.status === 422) await refetch(Infinity, true);
    }
    draw();
  };

  async function refetch(version, keepError = false) {
    if (page.env && page.env.version >= version) return;
    try {
      update(await api.view(id, token));
    } catch (error) {
      if (!keepError) showError(error);
    }
  }

  function update(env) {
    if (page.env && env.version < page.env.version) return;
    page.env = env;
    if (page.pending && env.version >= page.awaited) page.pending = false;
    draw();
    log.catchUp(env.version);
    if (env.status === "finished") stream?.close();
  }

  async function draw() {
    const env = page.env;
    if (!env) return;
    const table = tableName === "generic" ? generic : await tableFor(env.game);
    if (env !== page.env) return; // a newer view arrived meanwhile
    const ctx = new Context({ seat: env.seat, legal: page.pending ? [] : env.legal, act, envelope: env, seatName: namer, readonly: env.seat === null });
    const who = env.seat === null ? "Spectating" : `You are ${namer(env.seat)}`;
    header.replaceChildren(
      h("a.home", { href: "#/" }, "⌂ Lobby"),
      h("h1", {}, (catalogue?.find((g) => g.id === env.game)?.name) || env.game),
      h("span.who", {}, who),
      h("span.version", {}, `version ${env.version}`),
      connection,
      h("a.replay-link", { href: replayLink(id, token) }, "Replay"),
    );
    const status = env.status === "finished" ? "The match is over" : table.status?.(env.view, ctx) || (env.seat === null ? "Watching" : "Waiting for the other players");
    statusLine.textContent = page.pending ? "Sending…" : status;
    const mine = !page.pending && env.legal.length > 0;
    statusLine.classList.toggle("your-move", mine);
    if (mine && !yourMove) announce(`Your move. ${status}`);
    yourMove = mine;
    closeStaleMenus(page.pending ? [] : env.legal);
    const board = drawTable(table, env.view, ctx);
    const seated = [online.playersBar(env), online.actions(id, env, token, record, remember, showError)];
    tableBox.replaceChildren(...seated, resultBox(env.result, namer, env.view) || "", movesBar(ctx) || "", board);
    decorate(tableBox);
    Object.assign(tableBox.dataset, { version: String(env.version), status: env.status, game: env.game, pending: String(page.pending) });
    document.title = `${env.legal.length && !page.pending ? "• " : ""}${env.game} — tavern`;
  }

  let stream = null;
  try {
    const first = await api.view(id, token);
    const content = await api.content(first.game).catch(() => null); // a table without texts is still playable
    if (stale(gen)) return;
    useContent(content);
    rules.append(h("ul", {}, (content?.rules || []).map((line) => h("li", {}, line))));
    if (!record) {
      // joined by a link: this browser remembers the match too (with only the token it was given)
      const name = (await gameList()).find((g) => g.id === first.game)?.name || first.game;
      const seats = first.seat === null ? [] : [{ seat: first.seat, token }];
      remember({ match_id: id, game: first.game, name, seats, spectator_token: first.seat === null ? token : null, bots: [], created_at: new Date().toISOString() });
    }
    update(first);
  } catch (error) {
    showError(error);
    return;
  }
  if (page.env.status !== "finished") {
    stream = api.openStream(id, token, {
      lastId: page.env.version,
      onView: update,
      onPresence: (table) => {
        // a seat's stream opened or closed: the dots change, nothing else
        const now = new Map(table.players.map((p) => [p.seat, p.connected]));
        page.env = { ...page.env, players: page.env.players.map((p) => ({ ...p, connected: now.get(p.seat) ?? p.connected })) };
        draw();
      },
      onState: (state, error) => {
        connection.textContent = state;
        connection.dataset.state = state;
        if (error) showError(error);
      },
    });
  } else {
    connection.textContent = "finished";
  }
  leave = () => stream?.close();
}

// ---- the replay

async function showReplay(id, token, seat, gen) {
  let env;
  try {
    env = await api.view(id, token);
  } catch (error) {
    app.replaceChildren(errorBox(null));
    showError(error);
    return;
  }
  const finished = env.status === "finished";
  const viewer = finished ? (seat ?? env.seat) : null;
  let frames;
  try {
    frames = await api.replay(id, token, finished ? viewer : null);
  } catch (error) {
    app.replaceChildren(errorBox(null));
    showError(error);
    return;
  }
  const table = await tableFor(env.game);
  const name = (await gameList()).find((g) => g.id === env.game)?.name || env.game;
  const content = await api.content(env.game).catch(() => null);
  if (stale(gen)) return;
  useContent(content);
  const namer = seatNamer(known(id));
  const seats = env.view?.seats?.length || env.view?.sides?.length || known(id)?.seats?.length || 0;
  let index = 0;
  const slider = h("input#scrub", { type: "range", min: 0, max: frames.length - 1, value: 0 });
  const label = h("span#frame-label.frame-label");
  const board = h("div#replay-table");
  const show = (i) => {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[index];
    slider.value = String(index);
    label.textContent = `frame ${index + 1} of ${frames.length} · version ${frame.version} · ${frame.narration || (frame.event ? humanise(frame.event.type) : "before the first event")}`;
    const ctx = new Context({ seat: viewer, readonly: true, seatName: namer });
    board.replaceChildren(drawTable(table, frame.view, ctx));
    decorate(board);
    Object.assign(board.dataset, { frame: String(index), version: String(frame.version) });
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const seatChoice = h(
    "select#replay-seat",
    { disabled: !finished, onchange: (e) => (location.hash = replayLink(id, token, e.target.value === "" ? null : Number(e.target.value))) },
    h("option", { value: "" }, "Spectator"),
    Array.from({ length: seats }, (_, s) => h("option", { value: s, selected: viewer === s }, namer(s))),
  );
  const controls = h(
    "div.scrubber",
    {},
    h("button#first", { onclick: () => show(0), title: "first" }, "|◀"),
    h("button#prev", { onclick: () => show(index - 1), title: "previous" }, "◀"),
    slider,
    h("button#next", { onclick: () => show(index + 1), title: "next" }, "▶"),
    h("button#last", { onclick: () => show(frames.length - 1), title: "last" }, "▶|"),
    label,
  );
  app.replaceChildren(
    h("header.match-head", {}, h("a.home", { href: "#/" }, "⌂ Lobby"), h("h1", {}, `Replay · ${name}`),
      h("label.field.inline", {}, "Seen by ", seatChoice), finished ? null : h("span.hint", {}, "running: the spectator's view until the match is over"),
      h("a", { href: matchLink(id, token) }, "Back to the table")),
    errorBox(null),
    controls,
    board,
  );
  document.onkeydown = (event) => {
    if (["INPUT", "SELECT"].includes(event.target.tagName)) return; // a focused slider steps by itself
    if (event.key === "ArrowLeft") show(index - 1);
    if (event.key === "ArrowRight") show(index + 1);
  };
  leave = () => (document.onkeydown = null);
  show(0);
}

// ---- routing

async function route() {
  leave();
  leave = () => {};
  closeMenus();
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const gen = ++generation;
  const parts = path.split("/").filter(Boolean);
  try {
    if (parts[0] === "match" && parts[1]) await showMatch(parts[1], params.get("token"), params.get("table"), gen);
    else if (parts[0] === "replay" && parts[1]) await showReplay(parts[1], params.get("token"), params.has("seat") ? Number(params.get("seat")) : null, gen);
    else if (parts[0] === "created" && parts[1]) showCreated(parts[1]);
    else if (parts[0] === "invite" && parts[1]) await online.showInvite(app, parts[1], decodeURIComponent(parts[2] || ""), remember, showError);
    else if (parts[0] === "leaderboard" && parts[1]) await online.showLeaderboard(app, parts[1]);
    else await showLobby(gen);
  } catch (error) {
    showError(error);
  }
}

window.addEventListener("hashchange", route);
route();
