// Online play in the reference client (docs/online-play.md): a player name, the lobby of open
// matches, hosting one, invite links that carry only the invite code, the seats' names, bot
// badges and clocks, Concede, Start, Rematch, the leaderboards, challenges of bot accounts (docs/bots.md), and
// "Play now": a matchmaking ticket (docs/matchmaking.md). The player token stays in
// this browser's storage; a seat token is only ever the one the API answered to this player.
import { call, openInbox } from "./api.js";
import { _, date, language, n_, number } from "./i18n.js";
import { h, home } from "./ui.js";

const PLAYER = "tavern.player";
const DAY = 86400;

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

// optionField(option): the lobby's one field for a game option (app.js), here as in the other form
function hostForm(games, remember, showError, optionField) {
  const game = h("select#online-game", {}, games.map((g) => h("option", { value: g.id }, g.name)));
  const seats = h("input#online-seats", { type: "number" });
  const options = h("div#online-options.options");
  // the chosen game's seat range (a count it refuses cannot be asked) and its options
  const drawGame = () => {
    const g = games.find((one) => one.id === game.value);
    const count = Math.min(Math.max(Number(seats.value) || g.min_seats, g.min_seats), g.max_seats);
    Object.assign(seats, { min: g.min_seats, max: g.max_seats, value: count });
    options.replaceChildren(...g.options.map(optionField));
  };
  game.addEventListener("change", drawGame);
  drawGame();
  const bots = h("input#online-bots", { type: "number", min: 0, max: 5, value: 0 });
  const clock = h("input#online-clock", { type: "number", min: 0, value: 120, title: _("seconds per move; 0: no clock") });
  // a correspondence clock (docs/online-play.md): days per move as lichess offers them, vacation days per player
  const kind = h("select#online-clock-kind", {}, h("option", { value: "live" }, _("Live")),
    h("option", { value: "correspondence" }, _("Correspondence")));
  const days = h("select#online-days", {}, [1, 2, 3, 5, 7, 10, 14].map((d) => h("option", { value: d, selected: d === 3 },
    n_("{count} day", "{count} days", d))));
  const vacation = h("input#online-vacation", { type: "number", min: 0, max: 30, value: 2 });
  const hidden = h("input#online-private", { type: "checkbox" });
  const submit = async (event) => {
    event.preventDefault();
    const count = Number(seats.value);
    const botSeats = Array.from({ length: Number(bots.value) }, (unused, i) => count - 1 - i).filter((s) => s > 0);
    const open = Array.from({ length: count }, (unused, s) => s).filter((s) => s > 0 && !botSeats.includes(s));
    const chosen = Object.fromEntries([...options.querySelectorAll("select")].map((s) => [s.dataset.option, JSON.parse(s.value)]));
    const request = { game: game.value, seats: count, options: chosen, bots: botSeats, open, private: hidden.checked };
    if (kind.value === "correspondence") request.clock = { per_move_s: DAY * Number(days.value), vacation_days: Number(vacation.value) };
    else if (Number(clock.value) > 0) request.clock = { per_move_s: Number(clock.value), bank_s: 4 * Number(clock.value) };
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
    h("label.field", {}, _("Game"), game), h("label.field", {}, _("Seats"), seats), options, h("label.field", {}, _("Bots"), bots),
    h("label.field", {}, _("Clock"), kind), h("label.field", {}, _("Seconds per move"), clock),
    h("label.field", {}, _("Days per move"), days), h("label.field", {}, _("Vacation days"), vacation),
    h("label.field", {}, _("Private (invite link)"), hidden),
    h("button#host-match.primary", { type: "submit" }, _("Open the table")));
}

export async function join(id, body, remember, gameName) {
  const joined = await asMe(`/v1/matches/${id}/join`, { method: "POST", body });
  remember({ match_id: id, game: gameName || "", name: gameName || "", seats: [{ seat: joined.seat, token: joined.token }],
    bots: [], created_at: new Date().toISOString() });
  location.hash = matchHash(id, joined.token);
}

function openMatches(games, remember, known, showError) {
  const list = h("ul#open-matches.open-matches");
  const nameOf = (id) => games.find((g) => g.id === id)?.name || id;
  // a table this browser sits at (its host's own, or one it joined) is gone back to, never joined
  // again: a second join answers a new token and voids the one this browser holds
  const seatedOr = (m) => {
    const seat = known(m.match_id)?.seats?.[0];
    return seat ? h("a.primary.back-to-table", { href: matchHash(m.match_id, seat.token) }, _("Back to my table"))
      : h("button.join", { onclick: () => join(m.match_id, {}, remember, nameOf(m.game)).catch(showError) }, _("Join"));
  };
  const load = async () => {
    try {
      const page = await call("/v1/lobby?limit=50");
      list.replaceChildren(...page.matches.map((m) => h("li.open-match", { dataset: { match: m.match_id } },
        h("strong", {}, nameOf(m.game)), " ", _("hosted by {host}", { host: m.host }), " · ",
        m.seats.map((s) => (s.name ? `${s.name}${s.bot ? " 🤖" : ""}` : "—")).join(", "),
        " · ", clockOption(m.clock),
        " · ", n_("{count} free seat", "{count} free seats", m.free.length), " ", seatedOr(m))));
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

// Public matches being played (GET /v1/lobby/live), each watched with its spectator token: the
// spectator's table, no seat's hidden things, no move. Shown to anyone, registered or not.
function liveMatches(games, showError) {
  const list = h("ul#live-matches.open-matches");
  const nameOf = (id) => games.find((g) => g.id === id)?.name || id;
  const load = async () => {
    try {
      const page = await call("/v1/lobby/live?limit=50");
      list.replaceChildren(...page.matches.map((m) => h("li.live-match", { dataset: { match: m.match_id } },
        h("strong", {}, nameOf(m.game)), " · ", m.seats.map((s) => `${s.name}${s.bot ? " 🤖" : ""}`).join(", "),
        " · ", clockOption(m.clock), " ",
        h("a.watch.primary", { href: matchHash(m.match_id, m.spectator_token),
          "aria-label": _("Watch {game}: {players}", { game: nameOf(m.game), players: m.seats.map((s) => s.name).join(", ") }) }, _("Watch")))));
      if (!page.matches.length) list.append(h("li.none", {}, _("No match being played.")));
    } catch (error) {
      showError(error);
    }
  };
  load();
  const timer = setInterval(() => (document.body.contains(list) ? load() : clearInterval(timer)), 3000);
  return h("section#live-list.panel", {}, h("h2", {}, _("Matches being played")), list);
}

// Play now (docs/matchmaking.md): a ticket for a game; polled (which keeps it from lapsing) until
// its table is a match, then this player joins the seat kept for it, as after a challenge.
function playNow(games, remember, showError) {
  const game = h("select#play-now-game", {}, games.map((g) => h("option", { value: g.id }, g.name)));
  const rated = h("input#play-now-rated", { type: "checkbox", checked: true });
  const bots = h("input#play-now-bots", { type: "checkbox" });
  bots.onchange = () => { rated.checked = rated.checked && !bots.checked; rated.disabled = bots.checked; };
  const status = h("p#play-now-status.hint", { role: "status" });
  const cancel = h("button#play-now-cancel", { type: "button", hidden: true }, _("Cancel"));
  const submit = h("button#play-now.primary", { type: "submit" }, _("Play now"));
  let ticket = null;
  const finish = (text) => { ticket = null; status.textContent = text; cancel.hidden = true; submit.disabled = false; };
  cancel.onclick = async () => {
    const asked = ticket;
    if (!asked) return;
    try {
      await asMe(`/v1/matchmaking/tickets/${asked.ticket_id}`, { method: "DELETE" });
      finish(_("Search cancelled."));
    } catch (error) {
      showError(error);
    }
  };
  const follow = async (name) => {
    const mine = ticket;
    while (ticket === mine && document.body.contains(status)) {
      const seen = await asMe(`/v1/matchmaking/tickets/${mine.ticket_id}`);
      if (ticket !== mine) return; // cancelled while asking: the answer is of before
      if (seen.match_id) {
        finish("");
        return join(seen.match_id, {}, remember, name);
      }
      if (seen.status === "lapsed" || seen.status === "cancelled") return finish(_("Search ended."));
      status.textContent = _("Looking for players… {seconds} s", { seconds: Math.round(Date.now() / 1000 - seen.created) });
      await new Promise((done) => setTimeout(done, 2000));
    }
  };
  const ask = async (event) => {
    event.preventDefault();
    const body = { game: game.value, rated: rated.checked && !bots.checked, bots_after_s: bots.checked ? 30 : null };
    try {
      ticket = await asMe("/v1/matchmaking/tickets", { method: "POST", body });
      submit.disabled = true;
      cancel.hidden = false;
      await follow(game.selectedOptions[0].text);
    } catch (error) {
      finish("");
      showError(error);
    }
  };
  return h("form#play-now-form.panel", { onsubmit: ask }, h("h2", {}, _("Play now")),
    h("label.field", {}, _("Game"), game), h("label.field", {}, _("Rated"), rated),
    h("label.field", {}, _("Bots after 30 s"), bots), submit, cancel, status);
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

// Notifications (docs/notifications.md): Web Push in this browser (the Notification permission,
// the service worker sw.js, a subscription made with the service's VAPID key), and which kinds
// the player is told of, on every channel.
const KINDS = () => [["turn", _("My turn")], ["ended", _("A match ended")], ["time_low", _("My time runs low")]];

function fromBase64url(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return _("This browser cannot show notifications.");
  }
  if (await Notification.requestPermission() !== "granted") return _("Notifications are blocked for this site.");
  const registration = await navigator.serviceWorker.register("sw.js");
  await navigator.serviceWorker.ready;
  const { public_key: key } = await call("/v1/push/key");
  const subscription = await registration.pushManager.getSubscription()
    || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(key) });
  await asMe(`/v1/players/${me().id}/push-subscriptions`, { method: "POST", body: subscription.toJSON() });
  return _("This browser will be notified.");
}

function notifyPanel(showError) {
  const path = `/v1/players/${me().id}/notifications`;
  const status = h("p#notify-status.hint", { role: "status" });
  const boxes = KINDS().map(([kind, label]) => {
    // off until the service's choices are read: neither shown wrong meanwhile nor changed and then overwritten
    const box = h("input.notify-kind", { type: "checkbox", dataset: { kind }, disabled: true,
      onchange: () => asMe(path, { method: "PATCH", body: { [kind]: box.checked } }).catch(showError) });
    return h("label", {}, box, " ", label);
  });
  asMe(path).then((chosen) => {
    for (const { firstChild: box } of boxes) Object.assign(box, { checked: chosen[box.dataset.kind], disabled: false });
  }).catch(showError);
  const enable = async () => {
    try {
      status.textContent = await subscribePush();
    } catch (error) {
      showError(error);
    }
  };
  return h("section#notify.panel", {}, h("h2", {}, _("Notifications")),
    h("p.hint", {}, _("Be told when it is your turn, even with this page closed.")), ...boxes,
    h("button#notify-me", { onclick: enable }, _("Notify me in this browser")), status);
}

export function lobbyPanel(games, remember, known, showError, optionField) {
  const box = h("div#online.online");
  const draw = () => {
    const player = me();
    box.replaceChildren(...(player
      ? [h("p#playing-as.hint", {}, _("Playing as {name}", { name: player.name }), " · ", h("a#inbox-link", { href: "#/inbox" }, _("Your matches")),
        " · ", h("a#profile-link", { href: profileHash(player.id) }, _("Your profile"))),
        playNow(games, remember, showError), hostForm(games, remember, showError, optionField), openMatches(games, remember, known, showError),
        liveMatches(games, showError), botsList(games, remember, showError), notifyPanel(showError)]
      : [nameForm(draw, showError), liveMatches(games, showError)]));
  };
  draw();
  return box;
}

// ---- at the table

export function seatName(env, record) {
  return (seat) => {
    const player = env?.players?.[seat];
    const base = player?.name || _("Player {number}", { number: seat + 1 });
    // a person's seat a bot plays says why; a seat created as a bot is a bot
    if (player?.taken === "conceded") return _("{name} (conceded)", { name: base });
    if (player?.taken) return _("{name} (a bot plays for now)", { name: base });
    return player?.bot || record?.bots?.includes(seat) ? _("{name} (bot)", { name: base }) : base;
  };
}

const LOW_S = 20; // the clock turns red with this little time left in all

// a span of time: minutes and seconds, or days and hours on a correspondence clock
function duration(seconds) {
  if (seconds >= 3600) return _("{days} d {hours} h", { days: Math.floor(seconds / DAY), hours: Math.floor((seconds % DAY) / 3600) });
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// a match's clock option as the lobby and the inbox show it
function clockOption(clock) {
  if (!clock) return _("no clock");
  if (clock.per_move_s < DAY) return _("{seconds} s a move", { seconds: clock.per_move_s });
  const perMove = n_("{count} day a move", "{count} days a move", Math.round(clock.per_move_s / DAY));
  return clock.vacation_days ? `${perMove}, ${n_("{count} vacation day", "{count} vacation days", clock.vacation_days)}` : perMove;
}

// A seat's clock shown as the service keeps it (docs/online-play.md): the move's own time first,
// then the bank, which only runs once the move's time is spent; the deadline is their sum.
function drawClock(el) {
  const left = Math.max(0, Math.round(Number(el.dataset.deadline) - Date.now() / 1000));
  const bank = Math.min(Math.round(Number(el.dataset.bank || 0)), left);
  const move = left - bank;
  el.querySelector(".move-time").textContent = move > 0 || !bank ? duration(move) : "";
  el.querySelector(".bank").textContent = !bank ? "" : move > 0 ? _("bank {time}", { time: duration(bank) })
    : _("bank {time} running", { time: duration(bank) });
  el.classList.toggle("in-bank", move === 0 && bank > 0);
  el.classList.toggle("low", left <= LOW_S);
}

function clock(deadline, bank = 0) {
  const el = h("span.clock", { dataset: { deadline, bank }, title: _("time for this move, then the bank") },
    h("span.move-time"), " ", h("span.bank"));
  drawClock(el);
  return el;
}

setInterval(() => document.querySelectorAll(".clock[data-deadline]").forEach(drawClock), 1000);

export function playersBar(env) {
  return h("ul#players.players", {}, (env.players || []).map((p) => h("li.player", { dataset: { seat: p.seat }, class: p.seat === env.seat ? "me" : "" },
    h("span.name", {}, toProfile(p, p.name || _("Player {number}", { number: p.seat + 1 }))),
    p.bot ? h("span.badge.bot", {}, _("bot")) : null,
    h("span.presence", { title: p.connected ? _("connected") : _("away") }, p.connected ? "●" : "○"),
    p.clock?.deadline ? clock(p.clock.deadline, p.clock.bank_s) : p.clock ? h("span.clock.idle", {}, _("bank {time}", { time: duration(Math.round(p.clock.bank_s)) })) : null)));
}

// Concede (after a confirmation: it cannot be taken back) and Undo (when the envelope offers it) while
// playing, "Take back my seat" while
// a bot plays it for its player, Start while waiting (the host), Rematch at the end; the invite link.
export function actions(id, env, token, record, remember, showError, offered = null) {
  const out = [];
  const send = (type) => call(`/v1/matches/${id}/commands`, { method: "POST", token, body: { type } }).catch(showError);
  const mine = env.seat !== null ? env.players?.[env.seat] : null;
  if (env.status === "active" && mine && !mine.bot) {
    const last = (env.players || []).filter((p) => !p.taken).length <= 2;
    out.push(h("button#concede.danger", { onclick: () => {
      const warning = last ? _("Concede? The match ends now and counts as a loss. This cannot be undone.")
        : _("Concede? A bot plays your seat to the end and you rank last. This cannot be undone.");
      if (window.confirm(warning)) send("Concede");
    } }, _("Concede")));
  }
  if (env.status === "active" && env.undo) {  // the rules let this seat take back its last move
    out.push(h("button#undo", { title: _("Take back your last move: nothing was drawn or revealed since"),
      onclick: () => send("Undo") }, _("Undo")));
  }
  if (env.status === "active" && mine?.taken && mine.taken !== "conceded") {
    out.push(h("p#taken-over.hint", {}, mine.taken === "left" ? _("You left: a bot plays your seat.")
      : _("You ran out of time too often: a bot plays your seat.")));
    out.push(h("button#reclaim.primary", { onclick: () => send("Reclaim") }, _("Take back my seat")));
  }
  if (env.status === "waiting" && record?.host) {
    out.push(h("button#start", { onclick: () => asMe(`/v1/matches/${id}/start`, { method: "POST" }).catch(showError) }, _("Start with bots")));
  }
  if (env.status === "waiting" && me() && env.seat !== null) {
    // the host's leaving closes the table; a joiner's frees the seat again
    const label = record?.host ? _("Cancel the match") : _("Leave the table");
    out.push(h("button#leave-table", { onclick: async () => {
      try {
        await asMe(`/v1/matches/${id}/leave`, { method: "POST" });
        location.hash = "#/";
      } catch (error) {
        showError(error);
      }
    } }, label));
  }
  if (env.status === "waiting" && record?.invite) {
    out.push(h("span.invite", {}, _("Invite:"), " ", h("input#invite-link.share", { readonly: true, "aria-label": _("Invite link"),
      value: `${location.origin}${location.pathname}${inviteHash(id, record.invite)}` })));
  }
  if (env.status === "finished" && me() && env.seat !== null) {
    if (offered) {
      out.push(h("p#rematch-offer.hint", { role: "status" }, _("A rematch is offered: join it with Rematch.")));
    }
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

const rating = (r) => number(r.ordinal, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const profileHash = (playerId) => `#/players/${encodeURIComponent(playerId)}`;
const head = (cells) => h("thead", {}, h("tr", {}, cells.map((t) => h("th", { scope: "col" }, t))));

// what names a registered player (its line in a match's results, its name at the table), as a
// link to its profile; an anonymous seat's as it is
export function toProfile(player, shown) {
  return player?.player_id ? h("a.profile-link", { href: profileHash(player.player_id) }, shown) : shown;
}

export async function showLeaderboard(app, game, games) {
  const rows = await call(`/v1/games/${game}/leaderboard?limit=50`);
  const name = games.find((g) => g.id === game)?.name || game;
  // replaceChildren writes a null as the text "null": only what is there is passed
  app.replaceChildren(h("header.match-head", {}, home(), h("h1", {}, _("Leaderboard · {game}", { game: name }))),
    h("div#error.error", { hidden: true }),
    h("table#leaderboard.panel", {}, head(["#", _("Player"), _("Rating"), _("Matches")]),
      h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, number(r.rank)),
        h("td", {}, h("a.player-link", { href: profileHash(r.player_id) }, r.name), r.bot ? h("span.badge.bot", {}, _("BOT")) : null),
        h("td", {}, rating(r.rating)), h("td", {}, number(r.rating.matches)))))),
    ...(rows.length ? [] : [h("p.hint", {}, _("No rated match yet."))]));
}

// how a finished match ended for the player: its place, and a concession or abandonment
function standing(m) {
  if (m.ended === "abandoned") return _("abandoned, no winner");
  const place = m.won ? _("won ({rank} of {seats})", { rank: m.rank, seats: m.seats }) : _("{rank} of {seats}", { rank: m.rank, seats: m.seats });
  return m.ended === "conceded" ? _("{place}, by a concession", { place }) : place;
}

// A player's profile (GET /v1/players/{id}/profile): its ratings per game and its recent matches,
// each replayed with the public match's spectator token, or with this browser's own seat token.
export async function showProfile(app, playerId, games, records) {
  const profile = await call(`/v1/players/${encodeURIComponent(playerId)}/profile`);
  const nameOf = (id) => games.find((g) => g.id === id)?.name || id;
  const rated = Object.entries(profile.ratings);
  const replay = (m) => {
    const token = m.watch_token || records().find((r) => r.match_id === m.match_id)?.seats?.[0]?.token;
    return token ? h("a.replay-link", { href: `#/replay/${m.match_id}?token=${encodeURIComponent(token)}&seat=${m.seat}` }, _("Replay"))
      : _("private");
  };
  app.replaceChildren(h("header.match-head", {}, home(),
    h("h1#profile-name", {}, profile.name, profile.bot ? h("span.badge.bot", {}, _("BOT")) : null)),
  h("div#error.error", { hidden: true }),
  h("section#profile.panel", {}, h("h2", {}, _("Ratings")),
    rated.length ? h("table#profile-ratings", {}, head([_("Game"), _("Rating"), _("Matches")]),
      h("tbody", {}, rated.map(([game, r]) => h("tr", { dataset: { game } },
        h("td", {}, h("a", { href: `#/leaderboard/${game}` }, nameOf(game))), h("td", {}, rating(r)), h("td", {}, number(r.matches))))))
      : h("p.hint", {}, _("No rated match yet.")),
    h("h2", {}, _("Recent matches")),
    profile.recent.length ? h("table#profile-matches", {}, head([_("Date"), _("Game"), _("Result"), _("Score"), _("Replay")]),
      h("tbody", {}, profile.recent.map((m) => h("tr.played", { dataset: { match: m.match_id } }, h("td", {}, date(m.finished * 1000)),
        h("td", {}, nameOf(m.game)), h("td", {}, standing(m)), h("td", {}, number(m.score)), h("td", {}, replay(m))))))
      : h("p.hint", {}, _("No finished match yet."))));
}

// ---- your turn: a sound (off by a toggle kept in this browser) and, while the tab is hidden and
// the player allowed it, a system notification; the tab's title says it too (app.js)

const SOUND = "tavern.sound";
const soundOn = () => localStorage.getItem(SOUND) !== "off";

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no audio here (or not allowed before a click): the title and the notification still tell
  }
}

export function yourTurn(text) {
  if (soundOn()) beep();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(_("Your move"), { body: text, tag: "tavern-turn" });
  }
}

export function turnControls() {
  const sound = h("button#sound-toggle", { "aria-pressed": String(soundOn()), onclick: () => {
    localStorage.setItem(SOUND, soundOn() ? "off" : "on");
    sound.setAttribute("aria-pressed", String(soundOn()));
    sound.textContent = soundOn() ? _("Sound on") : _("Sound off");
  } }, soundOn() ? _("Sound on") : _("Sound off"));
  const asks = "Notification" in window && Notification.permission === "default";
  const notify = asks ? h("button#notify-me", { onclick: () => Notification.requestPermission().then(() => notify.remove()) },
    _("Notify me when it is my move")) : null;
  return h("span.turn-controls", {}, sound, notify);
}

// The player's inbox (GET /v1/players/me/inbox/stream): its running matches where it is its turn,
// then those waiting on others, each by the time left, kept live by one stream. A match links to
// its table when this browser holds the seat's token (the inbox never carries one).
export function showInbox(app, records, showError) {
  const player = me();
  if (!player) {
    location.hash = "#/";
    return () => {};
  }
  const status = h("p#inbox-status.hint", { role: "status" });
  const mine = h("ul#inbox-mine.open-matches");
  const others = h("ul#inbox-waiting.open-matches");
  const tokenOf = (id) => records().find((r) => r.match_id === id)?.seats?.[0]?.token;
  const row = (entry) => {
    const token = tokenOf(entry.match_id);
    const name = records().find((r) => r.match_id === entry.match_id)?.name || entry.game;
    return h("li.inbox-entry", { dataset: { match: entry.match_id } },
      token ? h("a", { href: matchHash(entry.match_id, token) }, name) : h("strong", {}, name), " · ",
      entry.deadline ? clock(entry.deadline) : _("no clock"));
  };
  const fill = (list, entries) => list.replaceChildren(...(entries.length ? entries.map(row) : [h("li.none", {}, _("Nothing here."))]));
  const stream = openInbox(player.token, {
    onInbox: (page) => {
      fill(mine, page.your_turn);
      fill(others, page.waiting);
    },
    onState: (state, error) => {
      status.textContent = state === "reconnecting" ? _("Reconnecting…") : "";
      if (error) showError(error);
    },
  });
  app.replaceChildren(home(), h("section#inbox.panel", {}, h("h2", {}, _("Your matches")), status,
    h("h3", {}, _("Your turn")), mine, h("h3", {}, _("Waiting for the others")), others));
  return () => stream.close();
}
