// Hero's Tavern as on the table: the draw pile and discard in the middle, each tavern keeper's
// tavern (bought cards carry the tokens paid onto them), hands as card backs but your own, your
// face-down pick, your purse of coins, storage and land, and the scoring pads.
import { N_, _, n_ } from "../i18n.js";
import { cardBack, h, nameOf, pile, term, waitingFor } from "../ui.js";

// a monogram per kind from its name in the player's language ("Light Ale" -> "LA", "Cook" -> "Co"),
// drawn as a coloured badge (no artwork, no emoji font needed)
function glyph(kind) {
  const words = term(kind).split(/\s+/).filter((w) => /^\p{L}/u.test(w));
  return words.length > 1 ? (words[0][0] + words[words.length - 1][0]).toUpperCase() : term(kind).slice(0, 2);
}
const GROUP = {
  entertainment: "category", food: "category", light_ale: "category", dark_ale: "category", lodging: "category", market: "category",
  games: "resource", barrel: "resource", tools: "resource",
  jester: "staff", cook: "staff", bartender: "staff", maid: "staff", shopkeeper: "staff",
};
const GROUPS = { category: N_("category"), resource: N_("resource"), staff: N_("staff") };
const TOKENS = ["coin", "storage", "land"];
const PAD = ["entertainment", "food", "ale", "lodging", "market", "jester", "cook", "bartender", "maid", "shopkeeper"];

function tokens(purse, { empty = "" } = {}) {
  const chips = TOKENS.flatMap((key) => (purse[key] ? [h(`span.token.${key}`, { title: _("{count} {token}", { count: purse[key], token: term(key) }) }, String(purse[key]))] : []));
  return h("span.tokens", {}, chips.length ? chips : empty);
}

function card(c, { paid = null } = {}) {
  return h(
    `div.card.ht.${c.kind.replace(/_/g, "-")}`,
    { dataset: { card: c.id, kind: c.kind }, class: GROUP[c.kind] },
    h("div.corner", {}, glyph(c.kind)),
    h("div.name", {}, term(c.kind)),
    h("div.group", {}, GROUP[c.kind] ? _(GROUPS[GROUP[c.kind]]) : ""),
    h("div.cost", {}, paid ? h("span.paid", {}, _("paid"), " ", tokens(paid)) : [_("cost"), " ", tokens(c.cost, { empty: _("free") })]),
  );
}

function tavern(side, ctx, mine) {
  return h(
    "div.tavern",
    {},
    side.tavern.length
      ? side.tavern.map((t) => {
          const el = card(t.card, { paid: t.tokens });
          if (t.tokens) el.classList.add("bought");
          if (mine) ctx.actionable(el, ctx.commands((c) => c.type === "BuyCard" && c.card === t.card.id), () => _("Buy {card}", { card: term(t.card.kind) }));
          return el;
        })
      : h("div.empty-note", {}, _("no cards yet")),
  );
}

function seatPanel(view, side, ctx) {
  const mine = side.seat === view.seat;
  const waiting = view.phase === "draft" ? !side.picked : side.purchasing;
  const hand = mine
    ? null
    : h("div.hand.backs", { title: n_("{count} card in hand", "{count} cards in hand", side.hand_size) }, Array.from({ length: side.hand_size }, () => cardBack("small")));
  return h(
    "section.seat",
    { class: [mine ? "mine" : "", waiting && view.phase !== "over" ? "thinking" : ""].join(" "), dataset: { seat: side.seat } },
    h(
      "header",
      {},
      h("span.seat-name", {}, mine ? _("{player} (you)", { player: ctx.seatName(side.seat) }) : ctx.seatName(side.seat)),
      tokens(side.tokens, { empty: _("no tokens") }),
      h("span.score", {}, n_("{count} hero", "{count} heroes", side.score)),
      h("span.state", {}, view.phase === "draft" ? (side.picked ? _("picked ✓") : _("choosing…")) : view.phase === "purchase" ? (side.purchasing ? _("buying…") : _("done")) : ""),
    ),
    hand,
    !mine && side.picked && view.phase === "draft" ? h("div.pick", {}, cardBack("small"), h("span", {}, _("face-down pick"))) : null,
    h("div.label", {}, _("Tavern")),
    tavern(side, ctx, mine),
  );
}

function pads(view, ctx) {
  const rounds = [1, 2, 3, 4, 5];
  const cell = (row) => (row ? h("td", { title: PAD.filter((k) => row[k]).map((k) => `${k === "ale" ? _("Ale") : term(k)} ${row[k]}`).join(", ") || _("nothing") }, String(row.total)) : h("td.blank", {}, ""));
  return h(
    "table.pad",
    {},
    h("caption", {}, _("Scoring pad")),
    h("thead", {}, h("tr", {}, h("th", {}, ""), rounds.map((r) => h("th", { class: r === view.round && view.phase !== "over" ? "now" : "" }, _("R{round}", { round: r }))), h("th", {}, _("Final")), h("th", {}, _("Total")))),
    h(
      "tbody",
      {},
      view.seats.map((side) =>
        h(
          "tr",
          { class: [side.seat === view.seat ? "mine" : "", view.winners.includes(side.seat) ? "winner" : ""].join(" ") },
          h("th", {}, ctx.seatName(side.seat)),
          rounds.map((r) => cell(side.pad[r - 1])),
          cell(side.pad[5]),
          h("td.total", {}, String(side.score)),
        ),
      ),
    ),
  );
}

export function render(view, ctx) {
  const me = view.seat;
  const order = view.seats.map((s) => s.seat);
  const others = me === null ? order : [...order.slice(me + 1), ...order.slice(0, me)];
  const mine = me === null ? null : view.seats[me];
  const discardTop = view.discard.slice(-5);
  const middle = h(
    "section.middle",
    {},
    h(
      "div.round-track",
      {},
      [1, 2, 3, 4, 5].map((r) => h("span.round", { class: r < view.round || view.phase === "over" ? "done" : r === view.round ? "now" : "" }, String(r))),
      h("span.phase", {}, view.phase === "draft" ? _("Draft — pick {pick} of 7", { pick: view.pick_number }) : view.phase === "purchase" ? _("Purchases") : _("Game over")),
    ),
    pile(view.deck_size, _("draw pile")),
    h(
      "div.discard",
      { title: n_("{count} card discarded", "{count} cards discarded", view.discard.length) },
      h("div.label", {}, _("Discard ({count})", { count: view.discard.length })),
      h("div.row", {}, discardTop.map((id) => h("span.chip", { dataset: { card: id } }, nameOf(id)))),
    ),
  );
  const own = mine
    ? h(
        "section.own",
        {},
        seatPanel(view, mine, ctx),
        view.my_pick ? h("div.my-pick", {}, h("div.label", {}, _("Your face-down pick")), card(view.my_pick)) : null,
        h("div.label", {}, view.hand.length ? _("Your hand") : ""),
        h(
          "div.hand.own-hand",
          {},
          view.hand.map((c) => ctx.actionable(card(c), ctx.commands((m) => m.type === "PickCard" && m.card === c.id), () => _("Pick {card}", { card: term(c.kind) }))),
        ),
        h("div.buttons", {}, ctx.button(_("Finish purchases"), ctx.commands((c) => c.type === "FinishPurchases"))),
      )
    : null;
  return h("div.table.heros-tavern", {}, h("div.opponents", {}, others.map((s) => seatPanel(view, view.seats[s], ctx))), middle, own, pads(view, ctx));
}

export function status(view, ctx) {
  if (view.phase === "over") return _("The match is over");
  if (ctx.legal.some((c) => c.type === "PickCard")) return _("Your move: pick a card to keep (pick {pick} of 7)", { pick: view.pick_number });
  if (ctx.legal.some((c) => c.type === "BuyCard" || c.type === "FinishPurchases")) return _("Your move: buy cards from your tavern, then finish");
  const waiting = view.seats.filter((s) => (view.phase === "draft" ? !s.picked : s.purchasing)).map((s) => s.seat);
  return waiting.length ? waitingFor(waiting, ctx) : null;
}
