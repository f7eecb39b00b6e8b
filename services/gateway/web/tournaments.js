// Tournaments in the reference client (docs/tournaments.md): the list (#/tournaments), and one
// tournament's standings and pairings (#/tournament/ID), with Register, Withdraw and Start, and
// this player's table to join: its seat is kept for it, the token answered to it alone.
import { call } from "./api.js";
import { N_, _, n_, number } from "./i18n.js";
import { me } from "./online.js";
import { h, home } from "./ui.js";

const asMe = (path, options = {}) => call(path, { ...options, token: me()?.token });
// marked here, said in the language of the moment each page is drawn
const STATUS = { registering: N_("registering"), running: N_("running"), finished: N_("finished") };
const KIND = { swiss: N_("Swiss"), elimination: N_("single elimination") };
const said = (names, key) => (names[key] ? _(names[key]) : key);
const points = (value) => number(value, { maximumFractionDigits: 2 });

export async function showTournaments(app, games, showError) {
  const list = await call("/v1/tournaments?limit=100");
  const nameOf = (id) => games.find((g) => g.id === id)?.name || id;
  const game = h("select#tournament-game", {}, games.map((g) => h("option", { value: g.id }, g.name)));
  const kind = h("select#tournament-kind", {}, Object.keys(KIND).map((value) => h("option", { value }, said(KIND, value))));
  const rounds = h("input#tournament-rounds", { type: "number", min: 1, max: 20, value: 5 });
  const seats = h("input#tournament-seats", { type: "number", min: 2, max: 5, value: 2 });
  const create = async (event) => {
    event.preventDefault();
    try {
      const body = { game: game.value, kind: kind.value, rounds: Number(rounds.value), seats: Number(seats.value) };
      const made = await asMe("/v1/tournaments", { method: "POST", body });
      location.hash = `#/tournament/${made.tournament_id}`;
    } catch (error) {
      showError(error);
    }
  };
  app.replaceChildren(h("header.match-head", {}, home(), h("h1", {}, _("Tournaments"))),
    h("div#error.error", { hidden: true }),
    h("ul#tournaments.open-matches.panel", {}, list.map((t) => h("li.open-match", {},
      h("a", { href: `#/tournament/${t.tournament_id}` }, t.name || nameOf(t.game)), " · ", said(KIND, t.kind),
      " · ", said(STATUS, t.status), " · ", n_("{count} player", "{count} players", t.players)))),
    list.length ? null : h("p.hint", {}, _("No tournament yet.")),
    me() ? h("form#tournament-form.panel", { onsubmit: create }, h("h2", {}, _("Create a tournament")),
      h("label.field", {}, _("Game"), game), h("label.field", {}, _("Kind"), kind),
      h("label.field", {}, _("Rounds"), rounds), h("label.field", {}, _("Seats"), seats),
      h("button#create-tournament.primary", { type: "submit" }, _("Create"))) : null);
}

export async function showTournament(app, id, showError) {
  const t = await call(`/v1/tournaments/${id}`);
  const player = me();
  const act = (what) => async () => {
    try {
      await asMe(`/v1/tournaments/${id}/${what}`, { method: "POST" });
      await showTournament(app, id, showError);
    } catch (error) {
      showError(error);
    }
  };
  const take = (matchId) => async () => {
    try {
      const joined = await asMe(`/v1/matches/${matchId}/join`, { method: "POST", body: {} });
      location.hash = `#/match/${matchId}?token=${encodeURIComponent(joined.token)}`;
    } catch (error) {
      showError(error);
    }
  };
  const name = (id) => t.names[id] || id;
  const registered = player && t.players.includes(player.id) && !(player.id in t.withdrawn);
  const buttons = [];
  if (player && t.status === "registering" && !registered) buttons.push(h("button#register-tournament.primary", { onclick: act("register") }, _("Register")));
  if (registered && t.status !== "finished") buttons.push(h("button#withdraw-tournament", { onclick: act("withdraw") }, _("Withdraw from the tournament")));
  if (player && player.id === t.host && t.status === "registering") buttons.push(h("button#start-tournament", { onclick: act("start") }, _("Start now")));
  const heads = ["#", _("Player"), _("Points"), _("Buchholz"), _("Wins"), _("Played")];
  app.replaceChildren(h("header.match-head", {}, home(), h("h1", {}, t.name || _("Tournament")), " ", said(KIND, t.kind),
    " · ", said(STATUS, t.status)),
  h("div#error.error", { hidden: true }), h("p", {}, ...buttons),
  h("table#standings.panel", {}, h("tr", {}, heads.map((text) => h("th", {}, text))),
    t.standings.map((r) => h("tr", {}, h("td", {}, number(r.rank)),
      h("td", {}, name(r.player_id), r.withdrawn ? h("span.badge", {}, _("withdrawn")) : null),
      h("td", {}, points(r.points)), h("td", {}, points(r.buchholz)), h("td", {}, number(r.wins)), h("td", {}, number(r.played))))),
  ...t.pairings.slice().reverse().map((round) => h("section.panel", {}, h("h2", {}, _("Round {number}", { number: round.number })),
    h("ul", {}, round.tables.map((table) => h("li", {}, table.match_id ? table.players.map(name).join(" – ") : _("{player}: bye", { player: name(table.players[0]) }),
      table.points ? ` (${table.points.map(points).join(" – ")})` : "",
      player && table.match_id && !table.points && table.players.includes(player.id)
        ? h("button.join", { onclick: take(table.match_id) }, _("Play my table")) : null))))));
}
