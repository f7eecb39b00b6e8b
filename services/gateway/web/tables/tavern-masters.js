// Tavern Masters as on the table: each master's Tavern of Goods, Staff and Patrons laid out in
// front of them with their gold, hands as card backs but your own, the draft packet, the three
// decks and their face-up discards, open trade offers and a Dirty Deed waiting for its answer.
// The view names cards by id only ("pale-ale-2"), so a card shows its name.
import { N_, _, n_ } from "../i18n.js";
import { cardBack, commandName, h, itemOf, nameOf, pile, term, waitingFor } from "../ui.js";

// the face (name, kind, cost, effect) comes from the game's content: ui.decorate
function card(id, ctx, commands = [], label = null) {
  const el = h("div.card.tm", { dataset: { card: id } }, h("div.name", {}, nameOf(id)), h("div.group", {}));
  return ctx.actionable(el, commands, label || undefined);
}

const itemGold = (id) => itemOf(id)?.cost?.gold ?? 0;

function describe(command) {
  const bits = [];
  if (command.free) bits.push(_("free, by its condition"));
  else if (command.card && (command.type === "PlayCard")) bits.push(_("for {gold} Gold", { gold: itemGold(command.card) }));
  if (command.target !== undefined && command.target >= 0) bits.push(_("at player {number}", { number: command.target + 1 }));
  if (command.target_card) bits.push(_("on {card}", { card: nameOf(command.target_card) }));
  if (command.own_card) bits.push(_("giving {card}", { card: nameOf(command.own_card) }));
  return `${commandName(command.type)}${bits.length ? ` (${bits.join(", ")})` : ""}`;
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
      h("span.seat-name", {}, mine ? _("{player} (you)", { player: ctx.seatName(seat) }) : ctx.seatName(seat)),
      h("span.token.coin", { title: term("gold") }, String(p.gold)),
      view.server === seat ? h("span.chip", {}, _("server")) : null,
      h("span.state", {}, view.phase === "over" ? "" : p.done ? _("done") : waiting ? _("to move…") : ""),
    ),
    mine ? null : h("div.hand.backs", { title: n_("{count} card in hand", "{count} cards in hand", p.hand_count) }, Array.from({ length: p.hand_count }, () => cardBack("small"))),
    h("div.label", {}, _("Tavern")),
    h("div.tavern", {}, p.tavern.length ? p.tavern.map((id) => card(id, ctx, ctx.commands((c) => c.target_card === id), describe)) : h("div.empty-note", {}, _("empty"))),
  );
}

// An offer's contents: a hand card another seat may not see is "" (shown as "a card from their hand").
function offerText(o, ctx) {
  const named = (id) => (id ? nameOf(id) : _("a card from their hand"));
  const give = [...o.give_hand, ...o.give_tavern].map(named);
  const take = [...o.take_hand, ...o.take_tavern].map(named);
  const bits = [];
  if (give.length) bits.push(_("{player} gives {cards}", { player: ctx.seatName(o.by), cards: give.join(", ") }));
  if (take.length) bits.push(_("{player} gives {cards}", { player: ctx.seatName(o.to), cards: take.join(", ") }));
  if (o.gold > 0) bits.push(_("{gold} gold from {player}", { gold: o.gold, player: ctx.seatName(o.by) }));
  if (o.gold < 0) bits.push(_("{gold} gold from {player}", { gold: -o.gold, player: ctx.seatName(o.to) }));
  return bits.length ? bits.join("; ") : _("nothing yet");
}

function tradeLabel(c) {
  if (c.type === "AddToOffer") return _("Put in {card}", { card: nameOf(c.card) });
  if (c.type === "SetOfferGold") return c.gold > 0 ? _("You pay {gold} gold", { gold: c.gold }) : _("They pay {gold} gold", { gold: -c.gold });
  return commandName(c.type);
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
        _("{player} is writing an offer to {other}: {offer}", { player: ctx.seatName(o.by), other: ctx.seatName(o.to), offer: offerText(o, ctx) }), " ",
        mine(o, "AddToOffer").length ? ctx.actionable(h("button.move", {}, _("Add a card…")), mine(o, "AddToOffer"), tradeLabel) : null,
        mine(o, "SetOfferGold").length ? ctx.actionable(h("button.move", {}, _("Set the gold…")), mine(o, "SetOfferGold"), tradeLabel) : null,
        ctx.button(_("Send"), mine(o, "MakeOffer")),
        ctx.button(_("Withdraw"), mine(o, "WithdrawOffer")),
      ),
    ),
    view.offers.map((o) =>
      h(
        "div.offer",
        { dataset: { offer: o.id } },
        _("{player} offers {other}: {offer}", { player: ctx.seatName(o.by), other: ctx.seatName(o.to), offer: offerText(o, ctx) }), " ",
        ctx.button(_("Accept"), ctx.commands((c) => c.type === "AnswerOffer" && c.offer === o.id && c.accept)),
        ctx.button(_("Decline"), ctx.commands((c) => c.type === "AnswerOffer" && c.offer === o.id && !c.accept)),
        ctx.button(_("Withdraw"), mine(o, "WithdrawOffer")),
      ),
    ),
    view.pending
      ? h("div.offer", {}, view.pending.target >= 0
        ? _("{player} plays {card} against {target}", { player: ctx.seatName(view.pending.seat), card: nameOf(view.pending.card), target: ctx.seatName(view.pending.target) })
        : _("{player} plays {card}", { player: ctx.seatName(view.pending.seat), card: nameOf(view.pending.card) }))
      : null,
  );
}

// Opening an offer: one button per other master not yet offered to this phase.
function trades(view, ctx) {
  const open = ctx.commands((c) => c.type === "OpenOffer");
  if (!open.length) return null;
  return h("span.trades", {}, open.map((c) => ctx.actionable(h("button.move.trade", {}, _("Offer {player} a trade", { player: ctx.seatName(c.to) })), [c],
    () => _("Write an offer to {player}", { player: ctx.seatName(c.to) }))));
}

const ENDED = { table_won: N_("The table won together!"), table_lost: N_("The table lost together."), won: N_("You reached the goal: won!"), lost: N_("The goal was not reached: lost.") };

// What the table plays for, in the mode's words, and how it ended.
function goal(view) {
  if (view.outcome in ENDED) return _(ENDED[view.outcome]);
  const words = { gold: view.target_gold, rounds: view.rounds, challenge: term(view.challenge) };
  if (view.mode === "cooperative") return _("Goal: every player has {gold} Gold after round {rounds} (challenge {challenge}).", words);
  if (view.mode === "solo") return _("Goal: {gold} Gold by the end of round {rounds} (challenge {challenge}).", words);
  return _("Goal: the first to {gold} Gold ends the match; most Gold wins (round {rounds} at the latest).", words);
}

export function render(view, ctx) {
  const me = view.seat;
  const others = view.players.map((p, seat) => [p, seat]).filter(([, seat]) => seat !== me);
  const middle = h(
    "section.middle",
    {},
    h("div.round-track", {}, Array.from({ length: view.rounds }, (unused, i) => h("span.round", { class: i + 1 < view.round || view.phase === "over" ? "done" : i + 1 === view.round ? "now" : "" }, String(i + 1))),
      h("span.phase", {}, [term(view.phase), view.mode !== "competitive" ? term(view.mode) : "", view.dirty_deeds ? _("Dirty Deeds") : ""].filter(Boolean).join(" · "))),
    h("div.goal", {}, goal(view)),
    Object.entries(view.deck_counts).map(([deck, n]) =>
      h("div.tm-deck", {}, pile(n, term(deck)), view.discard_tops[deck] ? h("div.discard-top", {}, card(view.discard_tops[deck], ctx), h("span.count", {}, _("discard {count}", { count: view.discard_counts[deck] }))) : null),
    ),
  );
  const mine = me === null ? null : view.players[me];
  const table = offers(view, ctx); // before the hand: a card put in an offer is chosen in the offer's menu
  const own = mine
    ? h(
        "section.own",
        {},
        master(view, mine, me, ctx),
        view.packet.length ? [h("div.label", {}, _("The packet: keep one")), h("div.hand", {}, view.packet.map((id) => card(id, ctx, ctx.commands((c) => c.type === "PickCard" && c.card === id), () => _("Keep this card"))))] : null,
        h("div.label", {}, view.hand.length ? _("Your hand") : ""),
        h("div.hand.own-hand", {}, view.hand.map((id) => card(id, ctx, ctx.commands((c) => c.card === id && c.type !== "PickCard" && c.type !== "AddToOffer"), describe))),
        h("div.buttons", {}, trades(view, ctx), ctx.button(_("Done"), ctx.commands((c) => c.type === "Done"))),
      )
    : null;
  return h("div.table.tavern-masters", {}, h("div.opponents", {}, others.map(([p, seat]) => master(view, p, seat, ctx))), middle, table, own);
}

export function status(view, ctx) {
  if (view.phase === "over") return _("The match is over");
  if (ctx.legal.length) return _("Your move: {phase}", { phase: term(view.phase) });
  return view.to_act.length ? waitingFor(view.to_act, ctx) : null;
}
