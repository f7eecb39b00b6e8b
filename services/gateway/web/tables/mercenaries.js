// Tavernkeepers and Mercenaries as on the table: the rival tavern across from you (hand and deck
// as card backs, its mercenaries on the field, upright to attack or turned sideways to defend),
// the treasury and the day's phases in the middle, your field and your hand below.
import { N_, _, n_ } from "../i18n.js";
import { cardBack, commandName, h, itemOf, nameOf, pile, term } from "../ui.js";

const SUIT = { spades: "♠", hearts: "♥", diamonds: "♦", clubs: "♣" };
const PHASES = ["morning", "afternoon", "night"];

const RANKS = { A: N_("Ace"), J: N_("Jack"), Q: N_("Queen"), K: N_("King") };
// "mc-0-hearts-q" -> "Queen of Hearts"
function cardName(id) {
  const { suit, rank } = parts(id);
  return _("{rank} of {suit}", { rank: rank in RANKS ? _(RANKS[rank]) : rank, suit: suit ? term(suit) : "?" });
}
// why a game of the match ended (the rules' reason codes)
const GAME_ENDS = {
  hp: N_("the other fell to 0 HP"), deck_out: N_("the other could not draw"), both_fell_hp: N_("both fell; more HP left"),
  both_fell_gold: N_("both fell; more gold"), both_fell_roll: N_("both fell; won the roll-off"),
};

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
    h("div.name", {}, nameOf(cv.card)),
    h("div.stats", {}, h("span.sword", { title: _("Sword") }, `⚔ ${s.sword}`), h("span.shield", { title: _("Shield") }, `◈ ${s.shield}`)),
    h("div.fees", {}, h("span", { title: _("Contract") }, _("hire {gold}", { gold: s.contract })), h("span", { title: _("Wage") }, _("wage {gold}", { gold: s.wage }))),
    sick ? h("div.flag", {}, _("just hired")) : null,
  );
}

function contractLabel(command) {
  const gold = itemOf(command.card)?.cost?.gold;
  const price = gold === undefined ? "" : ` ${_("for {gold} Gold", { gold })}`;
  const verb = command.type === "SellMercenary" ? `${_("Sell to the treasury")}${price}`
    : `${command.position === "defence" ? _("Hire in defence") : _("Hire in attack")}${price}`;
  const sacrificed = (command.sacrifices || []).map((c) => parts(c).rank + (SUIT[parts(c).suit] || "")).join(" ");
  return sacrificed ? _("{move}, sacrificing {cards}", { move: verb, cards: sacrificed }) : verb;
}

function fieldLabel(command) {
  if (command.type === "SetPosition") return command.position === "defence" ? _("Turn to defence") : _("Turn to attack");
  if (command.type === "ChooseDiscard") return _("Send this one to the Trash");
  if (command.type === "DismissMercenary") return _("Dismiss (cannot pay the wage)");
  return commandName(command.type);
}

// The Afternoon's attack: click your ready mercenaries to pick the group, then "Attack".
function attackPicker(ctx, side, state) {
  const declares = ctx.claim(ctx.commands((c) => c.type === "DeclareAttack"));
  if (!declares.length) return { field: null, controls: null };
  const key = (cards) => [...cards].sort().join(",");
  const matching = () => declares.find((c) => key(c.attackers) === key(state.selected));
  const eligible = new Set(declares.flatMap((c) => c.attackers));
  const button = h("button.move.attack", { disabled: true, onclick: () => matching() && ctx.act(matching()) }, _("Attack"));
  const refresh = () => {
    const chosen = matching();
    button.disabled = !chosen;
    button.classList.toggle("actionable", Boolean(chosen));
    button.textContent = state.selected.size ? _("Attack with {count}", { count: state.selected.size }) : _("Pick attackers");
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
  return { decorate, controls: h("span.attack-controls", {}, button, ctx.button(_("Attack with all {count}", { count: all.attackers.length }), [all], { class: "attack-all" })) };
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
      h("span.seat-name", {}, mine ? _("{player} (you)", { player: ctx.seatName(s.seat) }) : ctx.seatName(s.seat)),
      h("span.hp", { title: _("{hp} HP", { hp: s.hp }) }, h("span.bar", {}, h("span.fill", { style: { width: `${Math.min(100, hp)}%` } })), " ", _("{hp} HP", { hp: s.hp })),
      h("span.gold", {}, _("{gold} gold", { gold: s.gold })),
      s.all_in_used ? h("span.flag", {}, _("went All In")) : null,
      active && view.phase !== "over" ? h("span.turn-flag", {}, mine ? _("your move") : _("to move")) : null,
    ),
    h(
      "div.row",
      {},
      pile(s.deck_count, _("deck")),
      mine ? null : h("div.hand.backs", { title: n_("{count} card in hand", "{count} cards in hand", s.hand_count) }, Array.from({ length: s.hand_count }, () => cardBack("small"))),
      h("div.battlefield", {}, h("div.label", {}, _("Field")), fieldCards.length ? fieldCards : h("div.empty-note", {}, _("no mercenaries"))),
      h("div.trash", { title: s.trash.map(cardName).join(", ") }, h("div.label", {}, _("Trash ({count})", { count: s.trash.length })), s.trash.length ? h("div.chip", {}, cardName(s.trash[s.trash.length - 1])) : null),
    ),
  );
}

// The attack selection survives re-renders of the same turn (a new view replaces the table).
const selection = { turn: null, selected: new Set() };

// The game's last fight, as both seats see it: dice, strengths, damage and what went to the Trash.
function lastCombat(fight, ctx) {
  if (!fight) return null;
  const dice = (d) => (d.length ? _("rolled {dice}", { dice: d.join("+") }) : "");
  const strength = (d, n) => [dice(d), _("strength {strength}", { strength: n })].filter(Boolean).join(", ");
  const attack = fight.kind === "direct" ? _("Swords {strength}", { strength: fight.attack_strength }) : strength(fight.attack_dice, fight.attack_strength);
  const defence = fight.kind === "direct" ? dice(fight.defence_dice) : strength(fight.defence_dice, fight.defence_strength);
  const loss = fight.overrun ? _("{player} lost {damage} HP (overrun)", { player: ctx.seatName(fight.loser), damage: fight.damage })
    : _("{player} lost {damage} HP", { player: ctx.seatName(fight.loser), damage: fight.damage });
  const result = fight.loser < 0 ? _("a stand-off") : loss;
  const lost = fight.trashed.flatMap((cards, seat) => (cards.length ? [h("span", {}, " ", _("{player} lost", { player: ctx.seatName(seat) }), " ", cards.map((c) => h("span.chip", { dataset: { card: c } }, nameOf(c))))] : []));
  return h(
    "div.last-combat",
    { "aria-label": _("The last combat") },
    h("strong", {}, fight.kind === "direct" ? _("Last combat (direct attack):") : _("Last combat:")),
    " ",
    _("{attacker} {attack}; {defender} {defence}: {result}.", { attacker: ctx.seatName(fight.attacker), attack, defender: ctx.seatName(fight.defender), defence, result }),
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
    h("div.treasury", {}, h("span.token.coin", {}, "$"), " ", _("Treasury {gold}", { gold: view.treasury })),
    h("div.day", {}, h("span", {}, _("Game {game} of {games}", { game: view.game, games: view.best_of })), h("span", {}, _("Turn {turn}", { turn: view.turn })),
      PHASES.map((p) => h("span.phase", { class: p === view.phase ? "now" : "" }, term(p)))),
    h("div.wins", {}, view.wins.map((w, s) => h("span", {}, n_("{player}: {count} game won", "{player}: {count} games won", w, { player: ctx.seatName(s) })))),
    view.all_in_turn ? h("div.flag", {}, _("All In this turn")) : null,
    lastCombat(view.last_combat, ctx),
    view.games.length ? h("div.records", {}, view.games.map((g) => h("span.chip", {},
      _("Game {game}: {player} ({reason})", { game: g.number, player: ctx.seatName(g.winner), reason: g.reason in GAME_ENDS ? _(GAME_ENDS[g.reason]) : g.reason })))) : null,
  );
  const own = mine
    ? h(
        "div.own",
        {},
        side(view, mine, ctx, picker),
        h("div.label", {}, _("Your hand")),
        h(
          "div.hand.own-hand",
          {},
          view.hand.map((cv) => ctx.actionable(card(cv), ctx.commands((c) => ["Contract", "SellMercenary"].includes(c.type) && c.card === cv.card), contractLabel)),
        ),
        h(
          "div.buttons",
          {},
          picker.controls,
          ctx.button(view.phase === "morning" ? _("End the Morning") : _("End the Afternoon (no attack)"), ctx.commands((c) => c.type === "EndPhase")),
          ctx.button(_("Go All In"), ctx.commands((c) => c.type === "GoAllIn"), { class: "all-in" }),
        ),
      )
    : side(view, view.sides[bottom], ctx, picker);
  return h("div.table.mercenaries", {}, rivals.map((s) => side(view, s, ctx, picker)), middle, own);
}

export function status(view, ctx) {
  if (view.match_winner >= 0) return _("{player} wins the match", { player: ctx.seatName(view.match_winner) });
  if (view.waiting_for === view.seat) {
    if (view.discard_candidates.length) return _("Your move: choose which mercenary goes to the Trash");
    if (ctx.legal.some((c) => c.type === "DismissMercenary")) return _("Night: dismiss mercenaries you cannot pay");
    return _("Your move: {phase}", { phase: term(view.phase) });
  }
  return view.waiting_for >= 0 ? _("Waiting for {player} ({phase})", { player: ctx.seatName(view.waiting_for), phase: term(view.phase) }) : null;
}
