// The reference web client: a lobby, a live table per match, and a replay, over the public API
// (API.md) only. Routes live in the URL fragment, tokens too (a fragment never reaches a server):
//   #/                          the lobby
//   #/match/ID?token=T          a seat's (or the spectator's) live table (&table=generic: the plain panels)
//   #/replay/ID?token=T&seat=N  a replay with a scrubber, from seat N's chair once the match is over
//   #/inbox                     a registered player's matches: its turn, or waiting on others
//   #/players/ID                a player's profile: ratings, recent matches and their replays
import * as api from "./api.js";
import { chatPanel } from "./chat.js";
import * as i18n from "./i18n.js";
import { N_, _, n_ } from "./i18n.js";
import * as online from "./online.js";
import * as tournaments from "./tournaments.js";
import * as generic from "./tables/generic.js";
import { Context, categoryName, closeMenus, closeStaleMenus, decorate, h, home, humanise, movesBar, useContent } from "./ui.js";

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
  return (seat) => (bots.has(seat) ? _("Player {number} (bot)", { number: seat + 1 }) : _("Player {number}", { number: seat + 1 }));
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
    h("strong", {}, error.status === 422 ? _("Refused:") : error.status ? _("Error {status}:", { status: String(error.status) }) : _("Error:")),
    " ",
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

// the games' options and their choices (GET /v1/games names them by id)
const OPTIONS = {
  shopkeeper_cap: N_("Shopkeeper capped at 6"), zero_entertainment_second: N_("No entertainment: second place scores 0"),
  finite_tokens: N_("Finite tokens"), staff_copies: N_("Staff copies"), each: N_("each"), once: N_("once"),
  mode: N_("Mode"), competitive: N_("competitive"), cooperative: N_("cooperative"), solo: N_("solo"),
  challenge: N_("Challenge"), buzzed: N_("buzzed"), tipsy: N_("tipsy"), sloshed: N_("sloshed"), hammered: N_("hammered"), wasted: N_("wasted"),
  dirty_deeds: N_("Dirty Deeds"), round_cap: N_("Round cap (0: none)"), draft: N_("Draft"), 2018: N_("2018 rules"), booklet: N_("booklet"),
  card_list: N_("Card list"), best_of: N_("Best of"), ava_trash: N_("Trash after a fight"), losing_side: N_("the losing side's lowest"),
  lowest_overall: N_("the lowest of all"), sell_from: N_("Sell from"), hand: N_("the hand"), hand_or_field: N_("the hand or the field"),
  curse: N_("Curse card"), repeat_favour_kinds: N_("Repeat royal favour kinds"), repeat_privilege_right: N_("Repeat the privilege right"),
  off_turn_favours: N_("Royal favours off turn"), notary_second_deed: N_("Notary: a second deed"), auto_pass_entries: N_("Automatic pass"),
  true: N_("yes"), false: N_("no"), random: N_("random"), greedy: N_("greedy"), search: N_("search"), planner: N_("planner"), careful: N_("careful"),
};
const optionWord = (word) => (String(word) in OPTIONS ? _(OPTIONS[String(word)]) : humanise(String(word)));

function optionField(option) {
  const select = h("select", { name: option.name, dataset: { option: option.name } },
    option.choices.map((choice) => h("option", { value: JSON.stringify(choice), selected: choice === option.default },
      typeof choice === "number" ? i18n.number(choice) : optionWord(choice))));
  return h("label.field", {}, optionWord(option.name), select);
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
      h("span.field-name", {}, _("Bots at")),
      ...Array.from({ length: count }, (unused, seat) =>
        h("label.bot-seat", {}, h("input", { type: "checkbox", dataset: { seat }, checked: before[seat] ?? seat > 0 }), _("Player {number}", { number: seat + 1 }))),
    );
  };
  const drawGame = () => {
    const g = info();
    Object.assign(seatsInput, { min: g.min_seats, max: g.max_seats, value: Math.min(Math.max(Number(seatsInput.value) || g.min_seats, g.min_seats), g.max_seats) });
    optionsBox.replaceChildren(...g.options.map(optionField));
    botKind.replaceChildren(...g.bots.map((b) => h("option", { value: b, selected: b === "greedy" }, optionWord(b))));
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
    h("h2", {}, _("New match")),
    h("label.field", {}, _("Game"), gameSelect),
    h("label.field", {}, _("Seats"), seatsInput),
    optionsBox,
    botsBox,
    h("label.field", {}, _("Bot"), botKind),
    h("button#create-match.primary", { type: "submit" }, _("Create match")),
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
        h("a.join", { href: matchLink(record.match_id, token) }, record.bots?.includes(seat) ? _("watch its seat") : _("play")),
        h("input.share", { readonly: true, "aria-label": _("Link of {player}", { player: namer(seat) }),
          value: absolute(matchLink(record.match_id, token)), onfocus: (e) => e.target.select() }),
      ),
    ),
    record.spectator_token && h(
      "li",
      {},
      h("span.who", {}, _("Spectators")),
      h("a.spectate", { href: matchLink(record.match_id, record.spectator_token) }, _("watch")),
      h("input.share", { readonly: true, "aria-label": _("Spectators' link"),
        value: absolute(matchLink(record.match_id, record.spectator_token)), onfocus: (e) => e.target.select() }),
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
        (env) => (status.textContent = _("{status}, version {version}", { status: statusWord(env.status), version: env.version })),
        (error) => (status.textContent = error.code === "no_such_match" ? _("gone (the server restarted?)") : error.code),
      );
    }
    return h(
      "li.recent",
      { dataset: { match: record.match_id } },
      h("strong", {}, record.name || record.game),
      ` ${record.match_id} · ${i18n.date(record.created_at)} · `,
      status,
      " · ",
      h("a", { href: `#/created/${record.match_id}` }, _("links")),
      " · ",
      h("a", { href: replayLink(record.match_id, token) }, _("replay")),
    );
  });
  return h("section.panel.recent-list", {}, h("h2", {}, _("Recent matches (this browser)")), rows.length ? h("ul", {}, rows) : h("p", {}, _("None yet.")));
}

const seatRange = (g) =>
  g.min_seats === g.max_seats ? n_("{count} seat", "{count} seats", g.min_seats) : _("{min}–{max} seats", { min: g.min_seats, max: g.max_seats });

async function showLobby(gen) {
  const list = await gameList();
  if (stale(gen)) return;
  app.replaceChildren(
    errorBox(null),
    online.lobbyPanel(list, remember, known, showError, optionField),
    h("div.lobby", {}, createForm(list), recentList()),
    h("p.hint", {}, _("Everything here uses the public API"), " (", h("a", { href: "/openapi.json" }, "openapi.json"), "). ",
      _("Games: {games}.", { games: list.map((g) => `${g.name} (${seatRange(g)})`).join(", ") })),
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
      h("h2", {}, _("{game} — match {id}", { game: record.name, id })),
      h("p", {}, _("Send each player their own link: the token in it is the only proof of a seat.")),
      linksOf(record),
      h("p.commitment", {}, _("Seed commitment:"), " ", h("code", {}, record.seed_commitment)),
      first ? h("a.primary.big", { href: matchLink(id, first.token), id: "take-seat" }, _("Take the seat of {player}", { player: seatNamer(record)(first.seat) })) : null,
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
    return h("div", {}, h("p.hint", {}, _("This game's table could not draw this view; the plain view follows.")), generic.render(view, ctx));
  }
}

// An event the server did not narrate: one this seat may not see (the feed's "Hidden"), else its type.
const unnarrated = (type) => (type === "Hidden" ? _("Something you may not see happened.") : humanise(type));

// One line of "what happened": the server's narration of the event, as this seat may read it.
function eventLine(item) {
  return h("li", { dataset: { version: item.version } }, h("span.v", {}, String(item.version)), item.narration || unnarrated(item.type));
}

// The event log beside the table: GET /events?after=N each time the view moves on.
function eventLog(id, token, announce) {
  const list = h("ol.log-list");
  const box = h("section#log.log", { "aria-label": _("What happened"), tabindex: 0 }, h("h3", {}, _("What happened")), list);
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

const TABLE_OUTCOMES = { table_won: N_("The table won together!"), table_lost: N_("The table lost together."), won: N_("Won: the goal was reached!"), lost: N_("Lost: the goal was not reached.") };
const STATUSES = { waiting: N_("waiting"), active: N_("active"), finished: N_("finished") };
const statusWord = (status) => (status in STATUSES ? _(STATUSES[status]) : status);
const CONNECTION = { connecting: N_("connecting"), live: N_("live"), reconnecting: N_("reconnecting"), closed: N_("closed"), finished: N_("finished") };
const connectionWord = (state) => (state in CONNECTION ? _(CONNECTION[state]) : state);

// The score by category (the envelope's breakdown): a row per category, a column per seat, the totals last
function breakdownTable(lines, seats, namer) {
  if (!lines?.length) return "";
  const cell = (n) => h("td", {}, String(n));
  const caption = _("The score by category");
  // its own scrolling box on a narrow screen (reachable by keyboard), so the page never scrolls sideways
  return h("div.breakdown-box", { tabindex: "0", role: "region", "aria-label": caption }, h(
    "table.breakdown",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Category")), ...seats.map((s) => h("th", { scope: "col", dataset: { seat: s } }, namer(s))))),
    h("tbody", {}, lines.map((line) => h("tr", { dataset: { category: line.category } }, h("th", { scope: "row" }, categoryName(line.category)), ...seats.map((s) => cell(line.points[s]))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, _("Total")), ...seats.map((s) => cell(lines.reduce((sum, line) => sum + line.points[s], 0))))),
  ));
}

function resultBox(result, namer, view, lines, players = []) {
  if (!result) return null;
  const standings = [...(result.standings || [])].sort((a, b) => a.rank - b.rank);
  const together = TABLE_OUTCOMES[view?.outcome];
  const winners = result.winners || [];
  const headline = winners.length ? n_("{names} wins!", "{names} win!", winners.length, { names: i18n.list(winners.map(namer)) }) : _("The match is over");
  // a match ended by a concession or abandoned was never scored: say how it ended, not "score 0"
  const conceded = new Set(result.details?.conceded || []);
  const unscored = ["conceded", "abandoned"].includes(result.details?.ended);
  const line = (s) => {
    const player = namer(s.seat);
    if (unscored) {
      if (conceded.has(s.seat)) return player; // the name says it: "Ben (conceded)"
      return result.details.ended === "abandoned" ? _("{player} — abandoned, no winner", { player }) : _("{player} — wins: the others conceded", { player });
    }
    return s.tiebreak ? _("{player} — score {score} (tiebreak {tiebreak})", { player, score: s.score, tiebreak: s.tiebreak })
      : _("{player} — score {score}", { player, score: s.score });
  };
  return h(
    "section#result.panel.result",
    {},
    h("h2", {}, together ? _(together) : headline),
    h("ol.standings", {}, standings.map((s) => h("li", { dataset: { seat: s.seat } }, online.toProfile(players[s.seat], line(s))))),
    breakdownTable(lines, [...(result.standings || [])].map((s) => s.seat).sort((a, b) => a - b), namer),
  );
}

async function showMatch(id, token, tableName, gen) {
  const record = known(id);
  const page = { env: null, pending: false, awaited: 0, connection: "connecting", error: null };
  const namer = (seat) => online.seatName(page.env, record)(seat); // the names the envelope carries
  const connection = h("span#connection.connection", {}, connectionWord("connecting"));
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
  const rules = h("details#rules.rules", {}, h("summary", {}, _("How to play (rules in short)")));
  const side = h("aside.side", {}, rules, log.box);
  app.replaceChildren(header, errorBox(null), live, statusLine, h("div.match-body", {}, tableBox, side));
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
    if (env.status === "finished") {
      stream?.close();
      // another player's rematch offer, heard on this player's own events
      if (!offers && online.me() && env.seat !== null) {
        offers = api.playerEvents(online.me().token, (type, data) => {
          if (type === "rematch_offered" && data.match_id === id && !page.rematch) {
            page.rematch = data;
            draw();
          }
        });
      }
    }
  }

  async function draw() {
    const env = page.env;
    if (!env) return;
    const table = tableName === "generic" ? generic : await tableFor(env.game);
    if (env !== page.env) return; // a newer view arrived meanwhile
    const ctx = new Context({ seat: env.seat, legal: page.pending ? [] : env.legal, act, envelope: env, seatName: namer, readonly: env.seat === null });
    const who = env.seat === null ? _("Spectating") : _("You are {player}", { player: namer(env.seat) });
    header.replaceChildren(
      home(),
      h("h1", {}, (catalogue?.find((g) => g.id === env.game)?.name) || env.game),
      h("span.who", {}, who),
      h("span.version", {}, _("version {version}", { version: env.version })),
      connection,
      h("a.replay-link", { href: replayLink(id, token) }, _("Replay")),
      env.seat === null ? "" : online.turnControls(),
    );
    // a table still filling has dealt nothing: it waits for players to join, not for any seat's move
    const status = env.status === "finished" ? _("The match is over")
      : env.status === "waiting" ? _("Waiting for the match to start")
      : table.status?.(env.view, ctx) || (env.seat === null ? _("Watching") : _("Waiting for the other players"));
    statusLine.textContent = page.pending ? _("Sending…") : status;
    const mine = !page.pending && env.legal.length > 0;
    statusLine.classList.toggle("your-move", mine);
    if (mine && !yourMove) {
      announce(_("Your move. {status}", { status }));
      online.yourTurn(status);
    }
    yourMove = mine;
    closeStaleMenus(page.pending ? [] : env.legal);
    const board = drawTable(table, env.view, ctx);
    const seated = [online.playersBar(env), online.actions(id, env, token, record, remember, showError, page.rematch)];
    tableBox.replaceChildren(...seated, resultBox(env.result, namer, env.view, env.breakdown, env.players) || "", movesBar(ctx) || "", board);
    decorate(tableBox);
    Object.assign(tableBox.dataset, { version: String(env.version), status: env.status, game: env.game, pending: String(page.pending) });
    document.title = `${env.legal.length && !page.pending ? "• " : ""}${env.game} — tavern`;
  }

  let stream = null;
  let offers = null;
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
  const chat = chatPanel(id, token, page.env.seat, namer);
  side.append(chat.box);
  if (page.env.status !== "finished") {
    stream = api.openStream(id, token, {
      lastId: page.env.version,
      onView: update,
      onChat: () => chat.poll(), // the chat's lines are read with GET /chat, not carried by the stream
      onPresence: (table) => {
        // a seat's stream opened or closed: the dots change, nothing else
        const now = new Map(table.players.map((p) => [p.seat, p.connected]));
        page.env = { ...page.env, players: page.env.players.map((p) => ({ ...p, connected: now.get(p.seat) ?? p.connected })) };
        draw();
      },
      onState: (state, error) => {
        connection.textContent = connectionWord(state);
        connection.dataset.state = state;
        if (error) showError(error);
      },
    });
  } else {
    connection.textContent = connectionWord("finished");
  }
  leave = () => {
    stream?.close();
    offers?.close();
    chat.stop();
  };
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
  const slider = h("input#scrub", { type: "range", "aria-label": _("Move through the match"), min: 0, max: frames.length - 1, value: 0 });
  const label = h("span#frame-label.frame-label");
  const board = h("div#replay-table");
  const show = (i) => {
    index = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[index];
    slider.value = String(index);
    const what = frame.narration || (frame.event ? unnarrated(frame.event.type) : _("before the first event"));
    label.textContent = _("frame {frame} of {frames} · version {version} · {what}", { frame: index + 1, frames: frames.length, version: frame.version, what });
    const ctx = new Context({ seat: viewer, readonly: true, seatName: namer });
    board.replaceChildren(drawTable(table, frame.view, ctx));
    decorate(board);
    Object.assign(board.dataset, { frame: String(index), version: String(frame.version) });
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const seatChoice = h(
    "select#replay-seat",
    { disabled: !finished, onchange: (e) => (location.hash = replayLink(id, token, e.target.value === "" ? null : Number(e.target.value))) },
    h("option", { value: "" }, _("Spectator")),
    Array.from({ length: seats }, (unused, s) => h("option", { value: s, selected: viewer === s }, namer(s))),
  );
  const controls = h(
    "div.scrubber",
    {},
    h("button#first", { onclick: () => show(0), title: _("first") }, "|◀"),
    h("button#prev", { onclick: () => show(index - 1), title: _("previous") }, "◀"),
    slider,
    h("button#next", { onclick: () => show(index + 1), title: _("next") }, "▶"),
    h("button#last", { onclick: () => show(frames.length - 1), title: _("last") }, "▶|"),
    label,
  );
  app.replaceChildren(
    h("header.match-head", {}, home(), h("h1", {}, _("Replay · {game}", { game: name })),
      h("label.field.inline", {}, _("Seen by"), " ", seatChoice), finished ? null : h("span.hint", {}, _("running: the spectator's view until the match is over")),
      h("a", { href: matchLink(id, token) }, _("Back to the table"))),
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
    else if (parts[0] === "leaderboard" && parts[1]) await online.showLeaderboard(app, parts[1], await gameList());
    else if (parts[0] === "players" && parts[1]) await online.showProfile(app, decodeURIComponent(parts[1]), await gameList(), saved);
    else if (parts[0] === "inbox") leave = online.showInbox(app, saved, showError);
    else if (parts[0] === "tournaments") await tournaments.showTournaments(app, await gameList(), showError);
    else if (parts[0] === "tournament" && parts[1]) await tournaments.showTournament(app, parts[1], showError);
    else await showLobby(gen);
  } catch (error) {
    showError(error);
  }
}

// The bar on every page: the name, and the language switcher. A switch draws the page again in the
// new language without reloading it: the route runs anew, so its API calls and its reopened
// stream ask for the new language (content, narration), and a registered player's setting follows.
function drawNav() {
  const choice = h("select#language", { "aria-label": _("Language"), onchange: (event) => switchTo(event.target.value) },
    Object.entries(i18n.LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === i18n.language() }, name)));
  document.querySelector("nav.top").replaceChildren(
    h("a.brand", { href: "#/", translate: "no" }, "tavern"), // the service's name, in every language
    h("span.tagline", {}, _("four tavern board games, one public API")),
    h("label.language", {}, h("span.language-name", {}, _("Language")), choice),
  );
  document.title = "tavern";
}

async function switchTo(language) {
  // saved first: a registered player's setting decides the language of the texts the server sends
  await online.saveLanguage(language).catch(showError);
  await i18n.choose(language);
}

i18n.onChange(() => {
  catalogue = null; // the games' names may come in the new language
  drawNav();
  return route();
});

await i18n.load(i18n.preferred()).catch(() => i18n.load("en"));
drawNav();
window.addEventListener("hashchange", route);
route();
