// Online play in the reference client (docs/online-play.md): a player name, the lobby of open
// matches, hosting one, invite links that carry only the invite code, the seats' names, bot
// badges and clocks, Concede, Start, Rematch, the leaderboards, and challenges of bot accounts (docs/bots.md). The player token stays in
// this browser's storage; a seat token is only ever the one the API answered to this player.
import { call } from "./api.js";
import { _, language, n_, number } from "./i18n.js";
import { h, home } from "./ui.js";

const PLAYER = "tavern.player";

export function me() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER));
  } catch {
    return null;
  }
}

const asMe = (path, options = {}) => call(path, { ...options, token: me()?.token });

// A registered player's language is their setting on the server (docs/i18n.md): it wins over the
// Accept-Language of the calls made with their token, so a switch saves it there too.
export async function saveLanguage(chosen) {
  const player = me();
  if (player) await asMe(`/v1/players/${player.id}`, { method: "PATCH", body: { language: chosen } });
}

export const matchHash = (id, token) => `#/match/${id}?token=${encodeURIComponent(token)}`;
export const inviteHash = (id, code) => `#/invite/${id}/${encodeURIComponent(code)}`;

// The name prompt: registers once, then this browser plays as that player.
function nameForm(onDone, showError) {
  const input = h("input#player-name", { name: "name", maxlength: 24, placeholder: _("Your name"), required: true });
  const submit = async (event) => {
    event.preventDefault();
    try {
      const made = await call("/v1/players", { method: "POST", body: { name: input.value, language: language() } });
      localStorage.setItem(PLAYER, JSON.stringify({ id: made.player_id, name: made.name, token: made.token }));
      onDone();
    } catch (error) {
      showError(error);
    }
  };
  return h("form#player-form.panel", { onsubmit: submit }, h("h2", {}, _("Play online")),
    h("label.field", {}, _("Name"), input), h("button#register.primary", { type: "submit" }, _("Play as this name")));
}

function hostForm(games, remember, showError) {
  const game = h("select#online-game", {}, games.map((g) => h("option", { value: g.id }, g.name)));
  const seats = h("input#online-seats", { type: "number", min: 1, max: 6, value: 2 });
  const bots = h("input#online-bots", { type: "number", min: 0, max: 5, value: 0 });
  const clock = h("input#online-clock", { type: "number", min: 0, value: 120, title: _("seconds per move; 0: no clock") });
  const hidden = h("input#online-private", { type: "checkbox" });
  const submit = async (event) => {
    event.preventDefault();
    const count = Number(seats.value);
    const botSeats = Array.from({ length: Number(bots.value) }, (unused, i) => count - 1 - i).filter((s) => s > 0);
    const open = Array.from({ length: count }, (unused, s) => s).filter((s) => s > 0 && !botSeats.includes(s));
    const request = { game: game.value, seats: count, bots: botSeats, open, private: hidden.checked };
    if (Number(clock.value) > 0) request.clock = { per_move_s: Number(clock.value), bank_s: 4 * Number(clock.value) };
    try {
      const made = await asMe("/v1/matches", { method: "POST", body: request });
      const own = made.seats[0];
      remember({ match_id: made.match_id, game: game.value, name: game.selectedOptions[0].text, seats: [own], bots: botSeats,
        host: true, invite: made.invite || null, created_at: new Date().toISOString() });
      location.hash = matchHash(made.match_id, own.token);
    } catch (error) {
      showError(error);
    }
  };
  return h("form#host.panel", { onsubmit: submit }, h("h2", {}, _("Host an online match")),
    h("label.field", {}, _("Game"), game), h("label.field", {}, _("Seats"), seats), h("label.field", {}, _("Bots"), bots),
    h("label.field", {}, _("Seconds per move"), clock), h("label.field", {}, _("Private (invite link)"), hidden),
    h("button#host-match.primary", { type: "submit" }, _("Open the table")));
}

export async function join(id, body, remember, gameName) {
  const joined = await asMe(`/v1/matches/${id}/join`, { method: "POST", body });
  remember({ match_id: id, game: gameName || "", name: gameName || "", seats: [{ seat: joined.seat, token: joined.token }],
    bots: [], created_at: new Date().toISOString() });
  location.hash = matchHash(id, joined.token);
}

function openMatches(games, remember, showError) {
  const list = h("ul#open-matches.open-matches");
  const nameOf = (id) => games.find((g) => g.id === id)?.name || id;
  const load = async () => {
    try {
      const page = await call("/v1/lobby?limit=50");
      list.replaceChildren(...page.matches.map((m) => h("li.open-match", { dataset: { match: m.match_id } },
        h("strong", {}, nameOf(m.game)), " ", _("hosted by {host}", { host: m.host }), " · ",
        m.seats.map((s) => (s.name ? `${s.name}${s.bot ? " 🤖" : ""}` : "—")).join(", "),
        " · ", m.clock ? _("{seconds} s a move", { seconds: m.clock.per_move_s }) : _("no clock"),
        " · ", n_("{count} free seat", "{count} free seats", m.free.length), " ",
        h("button.join", { onclick: () => join(m.match_id, {}, remember, nameOf(m.game)).catch(showError) }, _("Join")))));
      if (!page.matches.length) list.append(h("li.none", {}, _("No open match: host one.")));
    } catch (error) {
      showError(error);
    }
  };
  load();
  const timer = setInterval(() => (document.body.contains(list) ? load() : clearInterval(timer)), 3000);
  return h("section#lobby-list.panel", {}, h("h2", {}, _("Open matches")), list,
    h("p.hint", {}, _("Leaderboards:"), " ", games.map((g) => h("a.board-link", { href: `#/leaderboard/${g.id}` }, g.name)).flatMap((a) => [a, " "])),
    h("p.hint", {}, h("a#tournaments-link", { href: "#/tournaments" }, _("Tournaments"))));
}

// Bot accounts: each with a game to pick and a Challenge button; once the bot accepts, this
// player joins the seat kept for it (its own token, answered to it alone) and the match starts.
function botsList(games, remember, showError) {
  const list = h("ul#bots.open-matches");
  const status = h("p#challenge-status.hint", { role: "status" });
  const challenge = async (bot, game, rated) => {
    const asked = await asMe("/v1/challenges", { method: "POST", body: { bot: bot.player_id, game: game.value, rated } });
    status.textContent = _("Challenge sent to {name}…", { name: bot.name });
    while (Date.now() / 1000 < asked.expires + 2) {
      const seen = await asMe(`/v1/challenges/${asked.challenge_id}`);
      if (seen.match_id) return join(seen.match_id, {}, remember, game.selectedOptions[0].text);
      if (seen.status !== "pending" && seen.status !== "accepted") break;
      await new Promise((done) => setTimeout(done, 700));
    }
    status.textContent = _("{name} did not accept.", { name: bot.name });
  };
  const load = async () => {
    try {
      const page = await call("/v1/bots?limit=50");
      list.replaceChildren(...page.bots.map((bot) => {
        const game = h("select.bot-game", { "aria-label": _("Game against {name}", { name: bot.name }) },
          games.map((g) => h("option", { value: g.id }, g.name)));
        const rated = h("input.bot-rated", { type: "checkbox", checked: true });
        return h("li.bot", { dataset: { bot: bot.player_id } }, h("strong", {}, bot.name), h("span.badge.bot", {}, _("BOT")), " ",
          game, h("label", {}, " ", _("rated"), " ", rated), " ",
          h("button.challenge", { onclick: () => challenge(bot, game, rated.checked).catch(showError) }, _("Challenge")));
      }));
      if (!page.bots.length) list.append(h("li.none", {}, _("No bot account yet.")));
    } catch (error) {
      showError(error);
    }
  };
  load();
  return h("section#bots-list.panel", {}, h("h2", {}, _("Bots")), list, status);
}

export function lobbyPanel(games, remember, showError) {
  const box = h("div#online.online");
  const draw = () => {
    const player = me();
    box.replaceChildren(...(player
      ? [h("p#playing-as.hint", {}, _("Playing as {name}", { name: player.name })), hostForm(games, remember, showError), openMatches(games, remember, showError),
        botsList(games, remember, showError)]
      : [nameForm(draw, showError)]));
  };
  draw();
  return box;
}

// ---- at the table

export function seatName(env, record) {
  return (seat) => {
    const player = env?.players?.[seat];
    const base = player?.name || _("Player {number}", { number: seat + 1 });
    return player?.bot || record?.bots?.includes(seat) ? _("{name} (bot)", { name: base }) : base;
  };
}

function clockText(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

setInterval(() => {
  for (const el of document.querySelectorAll(".clock[data-deadline]")) el.textContent = clockText(Number(el.dataset.deadline));
}, 1000);

export function playersBar(env) {
  return h("ul#players.players", {}, (env.players || []).map((p) => h("li.player", { dataset: { seat: p.seat }, class: p.seat === env.seat ? "me" : "" },
    h("span.name", {}, p.name || _("Player {number}", { number: p.seat + 1 })),
    p.bot ? h("span.badge.bot", {}, _("bot")) : null,
    h("span.presence", { title: p.connected ? _("connected") : _("away") }, p.connected ? "●" : "○"),
    p.clock?.deadline ? h("span.clock", { dataset: { deadline: p.clock.deadline } }, clockText(p.clock.deadline)) : null)));
}

// Concede while playing, Start while waiting (the host), Rematch at the end; the invite link.
export function actions(id, env, token, record, remember, showError) {
  const out = [];
  if (env.status === "active" && env.seat !== null && !env.players?.[env.seat]?.bot) {
    out.push(h("button#concede.danger", { onclick: () => call(`/v1/matches/${id}/commands`, { method: "POST", token,
      body: { type: "Concede" } }).catch(showError) }, _("Concede")));
  }
  if (env.status === "waiting" && record?.host) {
    out.push(h("button#start", { onclick: () => asMe(`/v1/matches/${id}/start`, { method: "POST" }).catch(showError) }, _("Start with bots")));
  }
  if (env.status === "waiting" && record?.invite) {
    out.push(h("span.invite", {}, _("Invite:"), " ", h("input#invite-link.share", { readonly: true,
      value: `${location.origin}${location.pathname}${inviteHash(id, record.invite)}` })));
  }
  if (env.status === "finished" && me() && env.seat !== null) {
    out.push(h("button#rematch.primary", { onclick: async () => {
      try {
        const next = await asMe(`/v1/matches/${id}/rematch`, { method: "POST" });
        remember({ match_id: next.match_id, game: env.game, name: env.game, seats: [{ seat: next.seat, token: next.token }], bots: [],
          created_at: new Date().toISOString() });
        location.hash = matchHash(next.match_id, next.token);
      } catch (error) {
        showError(error);
      }
    } }, _("Rematch")));
  }
  return h("div#online-actions.online-actions", {}, out);
}

// ---- pages

export async function showInvite(app, id, code, remember, showError) {
  const go = () => join(id, { invite: code }, remember).catch(showError);
  if (me()) return go();
  app.replaceChildren(h("div#error.error", { hidden: true }), nameForm(go, showError));
}

export async function showLeaderboard(app, game, games) {
  const rows = await call(`/v1/games/${game}/leaderboard?limit=50`);
  const name = games.find((g) => g.id === game)?.name || game;
  app.replaceChildren(h("header.match-head", {}, home(), h("h1", {}, _("Leaderboard · {game}", { game: name }))),
    h("div#error.error", { hidden: true }),
    h("table#leaderboard.panel", {}, h("tr", {}, ["#", _("Player"), _("Rating"), _("Matches")].map((t) => h("th", {}, t))),
      rows.map((r) => h("tr", {}, h("td", {}, number(r.rank)), h("td", {}, r.name, r.bot ? h("span.badge.bot", {}, _("BOT")) : null),
        h("td", {}, number(r.rating.ordinal, { minimumFractionDigits: 1, maximumFractionDigits: 1 })), h("td", {}, number(r.rating.matches))))),
    rows.length ? null : h("p.hint", {}, _("No rated match yet.")));
}
