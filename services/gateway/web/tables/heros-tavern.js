// Hero's Tavern as on the table: the draw pile and discard in the middle, each tavern keeper's
// tavern (bought cards carry the tokens paid onto them), hands as card backs but your own, your
// face-down pick, your purse of coins, storage and land, and the scoring pads.
import { cardBack, h, humanise, pile } from "../ui.js";

// a monogram per kind, drawn as a coloured badge (no artwork, no emoji font needed)
const GLYPH = {
  entertainment: "En", food: "Fo", light_ale: "LA", dark_ale: "DA", lodging: "Lo", market: "Ma",
  games: "Ga", barrel: "Ba", tools: "To", jester: "Je", cook: "Co", bartender: "Bt", maid: "Md", shopkeeper: "Sh",
};
const GROUP = {
  entertainment: "category", food: "category", light_ale: "category", dark_ale: "category", lodging: "category", market: "category",
  games: "resource", barrel: "resource", tools: "resource",
  jester: "staff", cook: "staff", bartender: "staff", maid: "staff", shopkeeper: "staff",
};
const TOKENS = [["coin", "coin"], ["storage", "storage"], ["land", "land"]];
const PAD = ["entertainment", "food", "ale", "lodging", "market", "jester", "cook", "bartender", "maid", "shopkeeper"];

function tokens(purse, { empty = "" } = {}) {
  const chips = TOKENS.flatMap(([key, name]) => (purse[key] ? [h(`span.token.${name}`, { title: `${purse[key]} ${name}` }, String(purse[key]))] : []));
  return h("span.tokens", {}, chips.length ? chips : empty);
}

function card(c, { paid = null } = {}) {
  return h(
    `div.card.ht.${c.kind.replace(/_/g, "-")}`,
    { dataset: { card: c.id, kind: c.kind }, class: GROUP[c.kind] },
    h("div.corner", {}, GLYPH[c.kind] || "?"),
    h("div.name", {}, humanise(c.kind)),
    h("div.group", {}, GROUP[c.kind] || ""),
    h("div.cost", {}, paid ? h("span.paid", {}, "paid ", tokens(paid)) : ["cost ", tokens(c.cost, { empty: "free" })]),
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
          if (mine) ctx.actionable(el, ctx.commands((c) => c.type === "BuyCard" && c.card === t.card.id), () => `Buy ${humanise(t.card.kind)}`);
          return el;
        })
      : h("div.empty-note", {}, "no cards yet"),
  );
}

function seatPanel(view, side, ctx) {
  const mine = side.seat === view.seat;
  const waiting = view.phase === "draft" ? !side.picked : side.purchasing;
  const hand = mine
    ? null
    : h("div.hand.backs", { title: `${side.hand_size} cards in hand` }, Array.from({ length: side.hand_size }, () => cardBack("small")));
  return h(
    "section.seat",
    { class: [mine ? "mine" : "", waiting && view.phase !== "over" ? "thinking" : ""].join(" "), dataset: { seat: side.seat } },
    h(
      "header",
      {},
      h("span.seat-name", {}, mine ? `${ctx.seatName(side.seat)} (you)` : ctx.seatName(side.seat)),
      tokens(side.tokens, { empty: "no tokens" }),
      h("span.score", {}, `${side.score} heroes`),
      h("span.state", {}, view.phase === "draft" ? (side.picked ? "picked ✓" : "choosing…") : view.phase === "purchase" ? (side.purchasing ? "buying…" : "done") : ""),
    ),
    hand,
    !mine && side.picked && view.phase === "draft" ? h("div.pick", {}, cardBack("small"), h("span", {}, "face-down pick")) : null,
    h("div.label", {}, "Tavern"),
    tavern(side, ctx, mine),
  );
}

function pads(view, ctx) {
  const rounds = [1, 2, 3, 4, 5];
  const cell = (row) => (row ? h("td", { title: PAD.filter((k) => row[k]).map((k) => `${humanise(k)} ${row[k]}`).join(", ") || "nothing" }, String(row.total)) : h("td.blank", {}, ""));
  return h(
    "table.pad",
    {},
    h("caption", {}, "Scoring pad"),
    h("thead", {}, h("tr", {}, h("th", {}, ""), rounds.map((r) => h("th", { class: r === view.round && view.phase !== "over" ? "now" : "" }, `R${r}`)), h("th", {}, "Final"), h("th", {}, "Total"))),
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
      h("span.phase", {}, view.phase === "draft" ? `Draft — pick ${view.pick_number} of 7` : view.phase === "purchase" ? "Purchases" : "Game over"),
    ),
    pile(view.deck_size, "draw pile"),
    h(
      "div.discard",
      { title: `${view.discard.length} cards discarded` },
      h("div.label", {}, `Discard (${view.discard.length})`),
      h("div.row", {}, discardTop.map((id) => h("span.chip", {}, id.replace(/^ht-|-\d+$/g, "")))),
    ),
  );
  const own = mine
    ? h(
        "section.own",
        {},
        seatPanel(view, mine, ctx),
        view.my_pick ? h("div.my-pick", {}, h("div.label", {}, "Your face-down pick"), card(view.my_pick)) : null,
        h("div.label", {}, view.hand.length ? "Your hand" : ""),
        h(
          "div.hand.own-hand",
          {},
          view.hand.map((c) => ctx.actionable(card(c), ctx.commands((m) => m.type === "PickCard" && m.card === c.id), () => `Pick ${humanise(c.kind)}`)),
        ),
        h("div.buttons", {}, ctx.button("Finish purchases", ctx.commands((c) => c.type === "FinishPurchases"))),
      )
    : null;
  return h("div.table.heros-tavern", {}, h("div.opponents", {}, others.map((s) => seatPanel(view, view.seats[s], ctx))), middle, own, pads(view, ctx));
}

export function status(view, ctx) {
  if (view.phase === "over") return "The match is over";
  if (ctx.legal.some((c) => c.type === "PickCard")) return `Your move: pick a card to keep (pick ${view.pick_number} of 7)`;
  if (ctx.legal.some((c) => c.type === "BuyCard" || c.type === "FinishPurchases")) return "Your move: buy cards from your tavern, then finish";
  const waiting = view.seats.filter((s) => (view.phase === "draft" ? !s.picked : s.purchasing)).map((s) => ctx.seatName(s.seat));
  return waiting.length ? `Waiting for ${waiting.join(", ")}` : null;
}
