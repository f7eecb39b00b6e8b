// Tavernkeepers and Mercenaries as on the table: the rival tavern across from you (hand and deck
// as card backs, its mercenaries on the field, upright to attack or turned sideways to defend),
// the treasury and the day's phases in the middle, your field and your hand below.
import { cardBack, h, itemOf, nameOf, pile } from "../ui.js";

const SUIT = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };
const PHASES = ["morning", "afternoon", "night"];

const RANKS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
// "mc-0-hearts-q" -> "Queen of Hearts"
function cardName(id) {
  const { suit, rank } = parts(id);
  return `${RANKS[rank] || rank} of ${suit ? suit[0].toUpperCase() + suit.slice(1) : "?"}`;
}

function parts(id) {
  const [, , suit, rank] = id.split("-");
  return { suit, rank: (rank || "?").toUpperCase() };
}

function card(cv, { position = null, sick = false, ready = false } = {}) {
  const { suit } = parts(cv.card);
  const s = cv.stats;
  return h(
    `div.card.merc.${suit}`,
    { class: [position === "defence" ? "defence" : "", sick ? "sick" : "", ready ? "ready" : ""].join(" "), dataset: { card: cv.card } },
    h("div.corner", {}, `${s.rank}${SUIT[suit] || ""}`),
    h("div.name", {}, s.group),
    h("div.stats", {}, h("span.sword", { title: "Sword" }, `⚔ ${s.sword}`), h("span.shield", { title: "Shield" }, `◈ ${s.shield}`)),
    h("div.fees", {}, h("span", { title: "Contract" }, `hire ${s.contract}`), h("span", { title: "Wage" }, `wage ${s.wage}`)),
    sick ? h("div.flag", {}, "just hired") : null,
  );
}

function contractLabel(command) {
  const gold = itemOf(command.card)?.cost?.gold;
  const price = gold === undefined ? "" : ` for ${gold} Gold`;
  const verb = command.type === "SellMercenary" ? `Sell to the treasury${price}` : `Hire in ${command.position === "defence" ? "defence" : "attack"}${price}`;
  return command.sacrifices && command.sacrifices.length ? `${verb}, sacrificing ${command.sacrifices.map((c) => parts(c).rank + (SUIT[parts(c).suit] || "")).join(" ")}` : verb;
}

function fieldLabel(command) {
  if (command.type === "SetPosition") return command.position === "defence" ? "Turn to defence" : "Turn to attack";
  if (command.type === "ChooseDiscard") return "Send this one to the Trash";
  if (command.type === "DismissMercenary") return "Dismiss (cannot pay the wage)";
  return command.type;
}

// The Afternoon's attack: click your ready mercenaries to pick the group, then "Attack".
function attackPicker(ctx, side, state) {
  const declares = ctx.claim(ctx.commands((c) => c.type === "DeclareAttack"));
  if (!declares.length) return { field: null, controls: null };
  const key = (cards) => [...cards].sort().join(",");
  const matching = () => declares.find((c) => key(c.attackers) === key(state.selected));
  const eligible = new Set(declares.flatMap((c) => c.attackers));
  const button = h("button.move.attack", { disabled: true, onclick: () => matching() && ctx.act(matching()) }, "Attack");
  const refresh = () => {
    const chosen = matching();
    button.disabled = !chosen;
    button.classList.toggle("actionable", Boolean(chosen));
    button.textContent = state.selected.size ? `Attack with ${state.selected.size}` : "Pick attackers";
  };
  const decorate = (el, id) => {
    if (!eligible.has(id)) return el;
    el.classList.add("selectable");
    el.classList.toggle("selected", state.selected.has(id));
    el.addEventListener("click", (event) => {
      event.stopPropagation();
      if (state.selected.has(id)) state.selected.delete(id);
      else state.selected.add(id);
      el.classList.toggle("selected", state.selected.has(id));
      refresh();
    });
    return el;
  };
  refresh();
  const all = declares.reduce((a, b) => (b.attackers.length > a.attackers.length ? b : a));
  return { decorate, controls: h("span.attack-controls", {}, button, ctx.button(`Attack with all ${all.attackers.length}`, [all], { class: "attack-all" })) };
}

function side(view, s, ctx, picker) {
  const mine = s.seat === view.seat;
  const active = view.waiting_for === s.seat;
  const fieldCards = s.field.map((m) => {
    let el = card(m.card, { position: m.position, sick: m.summoning_sick, ready: m.may_attack });
    if (mine) {
      el = ctx.actionable(el, ctx.commands((c) => ["SetPosition", "ChooseDiscard", "DismissMercenary"].includes(c.type) && c.card === m.card.card), fieldLabel);
      if (picker.decorate) el = picker.decorate(el, m.card.card);
    } else if (view.discard_candidates.includes(m.card.card)) {
      el.classList.add("candidate");
    }
    return el;
  });
  const hp = Math.max(0, s.hp);
  return h(
    "section.side",
    { class: [mine ? "mine" : "rival", active ? "active" : ""].join(" "), dataset: { seat: s.seat } },
    h(
      "header",
      {},
      h("span.seat-name", {}, mine ? `${ctx.seatName(s.seat)} (you)` : ctx.seatName(s.seat)),
      h("span.hp", { title: `${s.hp} HP` }, h("span.bar", {}, h("span.fill", { style: { width: `${Math.min(100, hp)}%` } })), ` ${s.hp} HP`),
      h("span.gold", {}, `${s.gold} gold`),
      s.all_in_used ? h("span.flag", {}, "went All In") : null,
      active && view.phase !== "over" ? h("span.turn-flag", {}, mine ? "your move" : "to move") : null,
    ),
    h(
      "div.row",
      {},
      pile(s.deck_count, "deck"),
      mine ? null : h("div.hand.backs", { title: `${s.hand_count} cards in hand` }, Array.from({ length: s.hand_count }, () => cardBack("small"))),
      h("div.battlefield", {}, h("div.label", {}, "Field"), fieldCards.length ? fieldCards : h("div.empty-note", {}, "no mercenaries")),
      h("div.trash", { title: s.trash.map(cardName).join(", ") }, h("div.label", {}, `Trash (${s.trash.length})`), s.trash.length ? h("div.chip", {}, cardName(s.trash[s.trash.length - 1])) : null),
    ),
  );
}

// The attack selection survives re-renders of the same turn (a new view replaces the table).
const selection = { turn: null, selected: new Set() };

// The game's last fight, as both seats see it: dice, strengths, damage and what went to the Trash.
function lastCombat(fight, ctx) {
  if (!fight) return null;
  const dice = (d) => (d.length ? `rolled ${d.join("+")}` : "");
  const attack = fight.kind === "direct" ? `Swords ${fight.attack_strength}` : `${dice(fight.attack_dice)}, strength ${fight.attack_strength}`;
  const defence = fight.kind === "direct" ? `${dice(fight.defence_dice)}` : `${dice(fight.defence_dice)}, strength ${fight.defence_strength}`;
  const result = fight.loser < 0 ? "a stand-off" : `${ctx.seatName(fight.loser)} lost ${fight.damage} HP${fight.overrun ? " (overrun)" : ""}`;
  const lost = fight.trashed.flatMap((cards, seat) => (cards.length ? [h("span", {}, ` ${ctx.seatName(seat)} lost `, cards.map((c) => h("span.chip", { dataset: { card: c } }, nameOf(c))))] : []));
  return h(
    "div.last-combat",
    { "aria-label": "The last combat" },
    h("strong", {}, fight.kind === "direct" ? "Last combat (direct attack): " : "Last combat: "),
    `${ctx.seatName(fight.attacker)} ${attack}; ${ctx.seatName(fight.defender)} ${defence}: ${result}.`,
    lost,
  );
}

export function render(view, ctx) {
  const me = view.seat;
  const turnKey = `${view.game}:${view.turn}:${view.phase}`;
  if (selection.turn !== turnKey) Object.assign(selection, { turn: turnKey, selected: new Set() });
  const picker = me === null ? { decorate: null, controls: null } : attackPicker(ctx, view.sides[me], selection);
  const bottom = me ?? 0; // a spectator sees the table from seat 1's chair
  const rivals = view.sides.filter((s) => s.seat !== bottom);
  const mine = me === null ? null : view.sides[me];
  const middle = h(
    "section.middle",
    {},
    h("div.treasury", {}, h("span.token.coin", {}, "$"), ` Treasury ${view.treasury}`),
    h("div.day", {}, h("span", {}, `Game ${view.game} of ${view.best_of}`), h("span", {}, `Turn ${view.turn}`),
      PHASES.map((p) => h("span.phase", { class: p === view.phase ? "now" : "" }, p))),
    h("div.wins", {}, view.wins.map((w, s) => h("span", {}, `${ctx.seatName(s)}: ${w} won`))),
    view.all_in_turn ? h("div.flag", {}, "All In this turn") : null,
    lastCombat(view.last_combat, ctx),
    view.games.length ? h("div.records", {}, view.games.map((g) => h("span.chip", {}, `Game ${g.number}: ${ctx.seatName(g.winner)} (${g.reason})`))) : null,
  );
  const own = mine
    ? h(
        "div.own",
        {},
        side(view, mine, ctx, picker),
        h("div.label", {}, "Your hand"),
        h(
          "div.hand.own-hand",
          {},
          view.hand.map((cv) => ctx.actionable(card(cv), ctx.commands((c) => ["Contract", "SellMercenary"].includes(c.type) && c.card === cv.card), contractLabel)),
        ),
        h(
          "div.buttons",
          {},
          picker.controls,
          ctx.button(view.phase === "morning" ? "End the Morning" : "End the Afternoon (no attack)", ctx.commands((c) => c.type === "EndPhase")),
          ctx.button("Go All In", ctx.commands((c) => c.type === "GoAllIn"), { class: "all-in" }),
        ),
      )
    : side(view, view.sides[bottom], ctx, picker);
  return h("div.table.mercenaries", {}, rivals.map((s) => side(view, s, ctx, picker)), middle, own);
}

export function status(view, ctx) {
  if (view.match_winner >= 0) return `${ctx.seatName(view.match_winner)} wins the match`;
  if (view.waiting_for === view.seat) {
    if (view.discard_candidates.length) return "Your move: choose which mercenary goes to the Trash";
    if (ctx.legal.some((c) => c.type === "DismissMercenary")) return "Night: dismiss mercenaries you cannot pay";
    return `Your move: the ${view.phase}`;
  }
  return view.waiting_for >= 0 ? `Waiting for ${ctx.seatName(view.waiting_for)} (${view.phase})` : null;
}
