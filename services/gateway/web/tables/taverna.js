// Taverna as on the table: the taverns laid out with their coloured tables (a customer tile on
// each occupied one), deeds with their price and points and the owner's marker, guild symbols and
// dignitaries; the customer row, the castle's royal favours and the piles in the middle; each
// player's coins, points, people tracks, favours and spells (yours face up, the others' as backs).
import { N_, _, list, n_ } from "../i18n.js";
import { cardBack, commandName, costText, fieldName, h, humanise, itemOf, kindName, nameOf, phrased, pile, term, waitingFor } from "../ui.js";

const PEOPLE = ["human", "elf", "dwarf", "orc"];
// the rulebook's words (taverna.txt) for the view's phases, tavern sizes and table colours
const PHASES = { people: N_("Choosing the people"), deeds: N_("Buying property deeds"), turns: N_("Turns"), royal: N_("Royal scoring"), over: N_("Game over") };
const SIZES = { small: N_("small tavern"), large: N_("large tavern") };
const word = (table, key) => (key in table ? _(table[key]) : humanise(key));

// a customer tile: its people's colour and initial (the legend below the table names them)
function people(name, extra = "") {
  const words = name ? term(name) : _("free table");
  return h(`span.people.${name || "none"}`, { class: extra, title: words, role: "img", "aria-label": words }, name ? words[0].toUpperCase() : "");
}

// A command in words: every id and word named as the content names it ("Activate Dignitary:
// Gob'Trotter to The Old Grimoire, Beer and Lyre").
function labelOf(command) {
  const whole = phrased(command);
  if (whole) return whole;
  const named = (value) => (typeof value === "string" ? nameOf(value) : String(value));
  const parts = Object.entries(command)
    .filter(([key, value]) => key !== "type" && key !== "card" && value !== "" && value !== -1 && !(Array.isArray(value) && !value.length))
    .map(([key, value]) => (["table", "to_table", "space"].includes(key) ? _("{field} {number}", { field: fieldName(key), number: value + 1 })
      : Array.isArray(value) ? list(value.map(named)) : named(value)));
  const what = command.card ? ` ${nameOf(command.card)}` : "";
  const price = command.type === "CastSpell" ? costText(itemOf(command.card)) : "";
  return `${commandName(command.type)}${what}${parts.length ? `: ${parts.join(", ")}` : ""}${price ? ` (${price})` : ""}`;
}

// the id-named chips (favours, cast spells, customers taken): decorate gives them their names
const chip = (id, extra = {}) => h("span.chip", { dataset: { card: id }, ...extra }, nameOf(id));

export function legend() {
  return h("p.legend", {}, _("Tiles:"), " ", ["elf", "dwarf", "orc", "human"].map((p) => h("span.legend-item", {}, people(p, "tile"), ` ${term(p)} `)),
    " · ¢ ", _("coins"), " · ★ ", _("points"), " · ✦ ", _("spell"), " · ☺ ", _("customer card"));
}

function tavern(t, view, ctx) {
  const tables = t.tables.map((colour, index) =>
    ctx.actionable(
      h("div.ta-table", { class: colour, dataset: { tavern: t.id, table: index } }, people(t.customers[index] || "", t.customers[index] ? "tile" : "free")),
      ctx.commands((c) => c.type === "PlaceCustomer" && c.tavern === t.id && c.table === index),
      () => _("Seat the customer at this {people} table", { people: term(t.tables[index]) }),
    ),
  );
  const deeds = t.deeds.map((deed, space) =>
    ctx.actionable(
      h(
        "div.deed",
        { class: deed.owner >= 0 ? `owned owner-${deed.owner}` : "", dataset: { tavern: t.id, space } },
        h("span.price", {}, `${deed.price}¢`),
        h("span.points", {}, `${deed.points}★`),
        deed.owner >= 0 ? h("span.owner", {}, ctx.seatName(deed.owner)) : null,
      ),
      ctx.commands((c) => c.type === "BuyDeed" && c.tavern === t.id && c.space === space),
      () => n_("Buy this property deed for {count} coin", "Buy this property deed for {count} coins", deed.price),
    ),
  );
  const dignitaries = t.dignitaries.map((d) =>
    ctx.actionable(h("span.chip.dignitary", { dataset: { card: d } }, nameOf(d)), ctx.commands((c) => c.type === "ActivateDignitary" && c.dignitary === d), labelOf),
  );
  return h(
    "section.ta-tavern",
    { class: t.size, dataset: { tavern: t.id } },
    h("header", { dataset: { tip: t.id } }, h("strong", {}, nameOf(t.id)), h("span.size", {}, word(SIZES, t.size)), t.privilege ? h("span.chip.privilege", {}, _("privilege")) : null),
    h("div.ta-tables", {}, tables),
    h("div.deeds", {}, deeds),
    h("div.symbols", {}, t.symbols.map((s) => h("span.chip.guild", {}, term(s))), dignitaries),
  );
}

function player(p, view, ctx) {
  const mine = p.seat === view.seat;
  const waiting = view.waiting_for.includes(p.seat);
  const favours = p.favours.map((f) =>
    ctx.actionable(chip(f, { class: `favour${p.used_favours.includes(f) ? " used" : ""}` }), mine ? ctx.commands((c) => c.type === "UseFavour" && c.favour === f) : [], labelOf),
  );
  return h(
    "section.seat.ta-player",
    { class: [mine ? "mine" : "", waiting ? "thinking" : ""].join(" "), dataset: { seat: p.seat } },
    h(
      "header",
      {},
      h("span.seat-name", {}, mine ? _("{player} (you)", { player: ctx.seatName(p.seat) }) : ctx.seatName(p.seat)),
      h("span.token.coin", { title: n_("{count} coin", "{count} coins", p.coins) }, String(p.coins)),
      h("span.score", {}, n_("{count} point", "{count} points", p.points)),
      p.privileges ? h("span.chip.privilege", {}, n_("{count} privilege", "{count} privileges", p.privileges)) : null,
      waiting ? h("span.state", {}, _("to move…")) : null,
    ),
    h("div.levels", {}, PEOPLE.filter((k) => k in p.levels).map((k) => h("span.level", { dataset: { tip: k } }, people(k, "tile"), h("span.track", {}, h("span.fill", { style: { width: `${Math.min(100, p.levels[k] * 20)}%` } })), String(p.levels[k])))),
    mine ? null : h("div.hand.backs", { title: n_("{count} spell in hand", "{count} spells in hand", p.hand_count) }, Array.from({ length: p.hand_count }, () => cardBack("small"))),
    p.cast.length ? h("div.row", {}, h("span.label", {}, _("Spells cast"), " "), p.cast.map((c) => chip(c))) : null,
    favours.length ? h("div.row", {}, h("span.label", {}, _("Royal favours"), " "), favours) : null,
    p.customers.length ? h("div.row", {}, h("span.label", {}, _("Customers"), " "), p.customers.map((c) => chip(c))) : null,
  );
}

function spell(card, ctx) {
  return ctx.actionable(
    h("div.card.ta-spell", { dataset: { card } }, h("div.corner", {}, "✦"), h("div.name", {}, nameOf(card)), h("div.group", {}, kindName("spell"))),
    ctx.commands((c) => (c.type === "CastSpell" || c.type === "SellSpell") && c.card === card),
    labelOf,
  );
}

export function render(view, ctx) {
  const me = view.seat;
  const mine = me === null ? null : view.players[me];
  const row = view.row.map((card) =>
    ctx.actionable(
      h("div.card.ta-customer", { dataset: { card } }, h("div.corner", {}, "☺"), h("div.name", {}, nameOf(card)), h("div.group", {}, kindName("customer"))),
      ctx.commands((c) => c.type === "PickCustomer" && c.card === card),
      (c) => _("Take this customer as {people}", { people: term(c.people) }),
    ),
  );
  const middle = h(
    "section.middle.ta-middle",
    {},
    h("div.crown", {}, h("span", {}, _("King:"), " ", view.king ? term(view.king) : "–"), h("span", {}, " ", _("Queen:"), " ", view.queen ? term(view.queen) : "–")),
    h("div.turns", {}, _("{phase} · turn {turn} of {turns}", { phase: word(PHASES, view.phase), turn: Math.min(view.turns_played + 1, view.turns_total), turns: view.turns_total })),
    pile(view.customer_deck, _("customers")),
    h("div.row-cards", {}, h("div.label", {}, _("Available customers")), h("div.hand", {}, row)),
    pile(view.spell_deck, _("spells")),
    h("div.castle", {}, h("div.label", {}, _("Castle (royal favours {favours}, privileges {privileges})", { favours: view.favour_reserve, privileges: view.privilege_reserve })),
      view.castle.map((f) => chip(f, { class: "favour" }))),
    h("div.supply", {}, Object.entries(view.guild_supply).map(([g, n]) => h("span.chip.guild", {}, `${term(g)} ${n}`)), Object.entries(view.tiles).map(([p, n]) => h("span.supply-tile", {}, people(p, "tile"), String(n)))),
  );
  const own = mine
    ? h("section.own", {}, player(mine, view, ctx), h("div.label", {}, mine.hand.length ? _("Your spells") : ""), h("div.hand.own-hand", {}, mine.hand.map((c) => spell(c, ctx))))
    : null;
  const others = view.players.filter((p) => p.seat !== me);
  return h(
    "div.table.taverna",
    {},
    h("div.opponents", {}, others.map((p) => player(p, view, ctx))),
    middle,
    h("div.ta-taverns", {}, view.taverns.map((t) => tavern(t, view, ctx))),
    own,
    legend(),
  );
}

const STEPS = {
  pick: N_("Your move: take a customer from the row"), place: N_("Your move: seat your customer at a table"),
  act: N_("Your move: use dignitaries, royal favours and spells, then end your turn"), deeds: N_("Your move: buy a property deed or pass"),
  people: N_("Your move: choose a people"), royal: N_("Your move: choose a royal scoring"),
  window: N_("Your move: use a royal favour before the turn goes on, or pass"), prompt: N_("Your move: answer with an instant spell, or pass"),
};

export function status(view, ctx) {
  if (view.phase === "over") return _("The match is over");
  if (ctx.legal.length) {
    const turn = view.turn;
    const asked = turn && turn.seat !== view.seat ? (turn.window_seats.includes(view.seat) ? "window" : "prompt") : null;
    const step = asked || (turn && turn.seat === view.seat ? turn.step : view.phase);
    return step in STEPS ? _(STEPS[step]) : _("Your move: {step}", { step: humanise(step) });
  }
  return view.waiting_for.length ? waitingFor(view.waiting_for, ctx) : null;
}
