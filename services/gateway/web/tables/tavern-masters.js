// Tavern Masters as on the table: each master's Tavern of Goods, Staff and Patrons laid out in
// front of them with their gold, hands as card backs but your own, the draft packet, the three
// decks and their face-up discards, open trade offers and a Dirty Deed waiting for its answer.
// The view names cards by id only ("pale-ale-2"), so a card shows its name.
import { cardBack, h, humanise, itemOf, nameOf, pile } from "../ui.js";

// the face (name, kind, cost, effect) comes from the game's content: ui.decorate
function card(id, ctx, commands = [], label = null) {
  const el = h("div.card.tm", { dataset: { card: id } }, h("div.name", {}, nameOf(id)), h("div.group", {}));
  return ctx.actionable(el, commands, label || undefined);
}

const itemGold = (id) => itemOf(id)?.cost?.gold ?? 0;

function describe(command) {
  const bits = [];
  if (command.free) bits.push("free, by its condition");
  else if (command.card && (command.type === "PlayCard")) bits.push(`for ${itemGold(command.card)} Gold`);
  if (command.target !== undefined && command.target >= 0) bits.push(`at player ${command.target + 1}`);
  if (command.target_card) bits.push(`on ${nameOf(command.target_card)}`);
  if (command.own_card) bits.push(`giving ${nameOf(command.own_card)}`);
  return `${humanise(command.type)}${bits.length ? ` (${bits.join(", ")})` : ""}`;
}

function master(view, p, seat, ctx) {
  const mine = seat === view.seat;
  const waiting = view.to_act.includes(seat);
  return h(
    "section.seat.tm-master",
    { class: [mine ? "mine" : "", waiting ? "thinking" : ""].join(" "), dataset: { seat } },
    h(
      "header",
      {},
      h("span.seat-name", {}, mine ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat)),
      h("span.token.coin", { title: "gold" }, String(p.gold)),
      view.server === seat ? h("span.chip", {}, "server") : null,
      h("span.state", {}, view.phase === "over" ? "" : p.done ? "done" : waiting ? "to move…" : ""),
    ),
    mine ? null : h("div.hand.backs", { title: `${p.hand_count} cards in hand` }, Array.from({ length: p.hand_count }, () => cardBack("small"))),
    h("div.label", {}, "Tavern"),
    h("div.tavern", {}, p.tavern.length ? p.tavern.map((id) => card(id, ctx, ctx.commands((c) => c.target_card === id), describe)) : h("div.empty-note", {}, "empty")),
  );
}

// An offer's contents: a hand card another seat may not see is "" (shown as "a card from their hand").
function offerText(o, ctx) {
  const named = (id) => (id ? nameOf(id) : "a card from their hand");
  const give = [...o.give_hand, ...o.give_tavern].map(named);
  const take = [...o.take_hand, ...o.take_tavern].map(named);
  const bits = [];
  if (give.length) bits.push(`${ctx.seatName(o.by)} gives ${give.join(", ")}`);
  if (take.length) bits.push(`${ctx.seatName(o.to)} gives ${take.join(", ")}`);
  if (o.gold > 0) bits.push(`${o.gold} gold from ${ctx.seatName(o.by)}`);
  if (o.gold < 0) bits.push(`${-o.gold} gold from ${ctx.seatName(o.to)}`);
  return bits.length ? bits.join("; ") : "nothing yet";
}

function tradeLabel(c) {
  if (c.type === "AddToOffer") return `Put in ${nameOf(c.card)}`;
  if (c.type === "SetOfferGold") return c.gold > 0 ? `You pay ${c.gold} gold` : `They pay ${-c.gold} gold`;
  return humanise(c.type);
}

// Open offers (sent, to answer) and offers being written (a menu of what may go in, then Send).
function offers(view, ctx) {
  if (!view.offers.length && !view.drafts.length && !view.pending) return null;
  const mine = (o, type) => ctx.commands((c) => c.type === type && c.offer === o.id);
  return h(
    "section.tm-offers",
    {},
    view.drafts.map((o) =>
      h(
        "div.offer.draft",
        { dataset: { offer: o.id } },
        `${ctx.seatName(o.by)} is writing an offer to ${ctx.seatName(o.to)}: ${offerText(o, ctx)} `,
        mine(o, "AddToOffer").length ? ctx.actionable(h("button.move", {}, "Add a card…"), mine(o, "AddToOffer"), tradeLabel) : null,
        mine(o, "SetOfferGold").length ? ctx.actionable(h("button.move", {}, "Set the gold…"), mine(o, "SetOfferGold"), tradeLabel) : null,
        ctx.button("Send", mine(o, "MakeOffer")),
        ctx.button("Withdraw", mine(o, "WithdrawOffer")),
      ),
    ),
    view.offers.map((o) =>
      h(
        "div.offer",
        { dataset: { offer: o.id } },
        `${ctx.seatName(o.by)} offers ${ctx.seatName(o.to)}: ${offerText(o, ctx)} `,
        ctx.button("Accept", ctx.commands((c) => c.type === "AnswerOffer" && c.offer === o.id && c.accept)),
        ctx.button("Decline", ctx.commands((c) => c.type === "AnswerOffer" && c.offer === o.id && !c.accept)),
        ctx.button("Withdraw", mine(o, "WithdrawOffer")),
      ),
    ),
    view.pending
      ? h("div.offer", {}, `${ctx.seatName(view.pending.seat)} plays ${nameOf(view.pending.card)}${view.pending.target >= 0 ? ` against ${ctx.seatName(view.pending.target)}` : ""}`)
      : null,
  );
}

// Opening an offer: one button per other master not yet offered to this phase.
function trades(view, ctx) {
  const open = ctx.commands((c) => c.type === "OpenOffer");
  if (!open.length) return null;
  return h("span.trades", {}, open.map((c) => ctx.actionable(h("button.move.trade", {}, `Offer ${ctx.seatName(c.to)} a trade`), [c], () => `Write an offer to ${ctx.seatName(c.to)}`)));
}

// What the table plays for, in the mode's words, and how it ended.
function goal(view) {
  const ended = { table_won: "The table won together!", table_lost: "The table lost together.", won: "You reached the goal: won!", lost: "The goal was not reached: lost." };
  if (ended[view.outcome]) return ended[view.outcome];
  if (view.mode === "cooperative") return `Goal: every player has ${view.target_gold} Gold after round ${view.rounds} (challenge ${humanise(view.challenge)}).`;
  if (view.mode === "solo") return `Goal: ${view.target_gold} Gold by the end of round ${view.rounds} (challenge ${humanise(view.challenge)}).`;
  return `Goal: the first to ${view.target_gold} Gold ends the match; most Gold wins (round ${view.rounds} at the latest).`;
}

export function render(view, ctx) {
  const me = view.seat;
  const others = view.players.map((p, seat) => [p, seat]).filter(([, seat]) => seat !== me);
  const middle = h(
    "section.middle",
    {},
    h("div.round-track", {}, Array.from({ length: view.rounds }, (_, i) => h("span.round", { class: i + 1 < view.round || view.phase === "over" ? "done" : i + 1 === view.round ? "now" : "" }, String(i + 1))),
      h("span.phase", {}, `${humanise(view.phase)}${view.mode !== "competitive" ? ` · ${view.mode}` : ""}${view.dirty_deeds ? " · Dirty Deeds" : ""}`)),
    h("div.goal", {}, goal(view)),
    Object.entries(view.deck_counts).map(([deck, n]) =>
      h("div.tm-deck", {}, pile(n, deck), view.discard_tops[deck] ? h("div.discard-top", {}, card(view.discard_tops[deck], ctx), h("span.count", {}, `discard ${view.discard_counts[deck]}`)) : null),
    ),
  );
  const mine = me === null ? null : view.players[me];
  const table = offers(view, ctx); // before the hand: a card put in an offer is chosen in the offer's menu
  const own = mine
    ? h(
        "section.own",
        {},
        master(view, mine, me, ctx),
        view.packet.length ? [h("div.label", {}, "The packet: keep one"), h("div.hand", {}, view.packet.map((id) => card(id, ctx, ctx.commands((c) => c.type === "PickCard" && c.card === id), () => "Keep this card")))] : null,
        h("div.label", {}, view.hand.length ? "Your hand" : ""),
        h("div.hand.own-hand", {}, view.hand.map((id) => card(id, ctx, ctx.commands((c) => c.card === id && c.type !== "PickCard" && c.type !== "AddToOffer"), describe))),
        h("div.buttons", {}, trades(view, ctx), ctx.button("Done", ctx.commands((c) => c.type === "Done"))),
      )
    : null;
  return h("div.table.tavern-masters", {}, h("div.opponents", {}, others.map(([p, seat]) => master(view, p, seat, ctx))), middle, table, own);
}

export function status(view, ctx) {
  if (view.phase === "over") return "The match is over";
  if (ctx.legal.length) return `Your move: the ${humanise(view.phase).toLowerCase()}`;
  return view.to_act.length ? `Waiting for ${view.to_act.map(ctx.seatName).join(", ")}` : null;
}
