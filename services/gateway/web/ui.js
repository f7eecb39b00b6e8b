// Small DOM helpers shared by the tables: an element builder, command labels, and "actionable"
// elements that send one of the seat's legal commands (or open a menu when several fit).
import { N_, _, list } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  // "tag#id.class.class", as in a CSS selector
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = [el.className, value].filter(Boolean).join(" ");
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export const humanise = (text) =>
  String(text)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .replace(/^./, (c) => c.toUpperCase());

// The commands of the four games and their fields, in words (a type the table lacks is humanised).
const COMMANDS = {
  PickCard: N_("Pick"), BuyCard: N_("Buy"), FinishPurchases: N_("Finish purchases"),
  Contract: N_("Hire"), SellMercenary: N_("Sell"), SetPosition: N_("Set position"), GoAllIn: N_("Go All In"),
  EndPhase: N_("End the phase"), DeclareAttack: N_("Attack"), ChooseDiscard: N_("Send to the Trash"),
  DismissMercenary: N_("Dismiss"), Mulligan: N_("Mulligan"), KeepHand: N_("Keep the hand"), PlayCard: N_("Play"),
  PlayPatron: N_("Play patron"), OpenOffer: N_("Open an offer"), AddToOffer: N_("Add to the offer"),
  SetOfferGold: N_("Set the offer's gold"), MakeOffer: N_("Send the offer"), WithdrawOffer: N_("Withdraw the offer"),
  AnswerOffer: N_("Answer the offer"), PlayDeed: N_("Play a Dirty Deed"), AnswerDeed: N_("Answer the Dirty Deed"),
  DiscardCard: N_("Discard"), Done: N_("Done"), ChoosePeople: N_("Choose a people"), BuyDeed: N_("Buy a property deed"),
  PassDeed: N_("Buy no deed"), PickCustomer: N_("Take a customer"), PlaceCustomer: N_("Seat the customer"),
  ActivateDignitary: N_("Activate a dignitary"), CastSpell: N_("Cast"), SellSpell: N_("Sell the spell"),
  UseFavour: N_("Use a royal favour"), Pass: N_("Pass"), SetAutoPass: N_("Pass automatically"), EndTurn: N_("End the turn"),
  ChooseScoring: N_("Choose a royal scoring"), Concede: N_("Concede"), Reclaim: N_("Take back my seat"),
  Undo: N_("Undo"),
};
const FIELDS = {
  accept: N_("accept"), always: N_("always"), attackers: N_("attackers"), cancel: N_("cancel"), dignitary: N_("dignitary"),
  favour: N_("royal favour"), favours: N_("royal favours"), free: N_("free"), from_guild: N_("from the guild"), gold: N_("gold"),
  guild: N_("guild"), guilds: N_("guilds"), offer: N_("offer"), on: N_("on"), option: N_("option"), own_card: N_("own card"),
  people: N_("people"), peoples: N_("peoples"), position: N_("position"), sacrifices: N_("sacrifices"), space: N_("space"),
  table: N_("table"), target: N_("target"), target_card: N_("target card"), tavern: N_("tavern"), to: N_("to"),
  to_table: N_("to the table"), to_tavern: N_("to the tavern"),
};
export const commandName = (type) => (type in COMMANDS ? _(COMMANDS[type]) : humanise(type));
export const fieldName = (key) => (key in FIELDS ? _(FIELDS[key]) : humanise(key).toLowerCase());
export const yesNo = (value) => (value ? _("yes") : _("no"));
// "Waiting for Ann and Bob": every table's status line while others move
export const waitingFor = (seats, ctx) => _("Waiting for {players}", { players: list(seats.map(ctx.seatName)) });

// an id or a word of the game as the content names it; other values as they are
function fieldText(value) {
  if (Array.isArray(value)) return value.length ? list(value.map(fieldText)) : _("none");
  if (typeof value === "boolean") return yesNo(value);
  if (value && typeof value === "object") return JSON.stringify(value);
  return typeof value === "string" && (itemOf(value) || value in terms) ? nameOf(value) : String(value);
}

// The commands whose yes-or-no field changes what they do, each said as a whole ("true" or
// "on: yes" says nothing to a player); a flag of another command is said by its phrase when set.
const PHRASES = {
  Pass: (c) => (c.always ? _("Pass, and pass every later prompt too") : _("Pass")),
  SetAutoPass: (c) => (c.on ? _("Always pass: on") : _("Always pass: off")),
  AnswerOffer: (c) => (c.accept ? _("Accept offer {number}", { number: c.offer }) : _("Decline offer {number}", { number: c.offer })),
};
const FLAGS = { free: N_("free, by its condition") };
export const phrased = (command) => PHRASES[command.type]?.(command) ?? null;

// A command in words with its price: "Buy Light Ale (costs 1 land token)".
export function commandLabel(command) {
  const whole = phrased(command);
  if (whole) return whole;
  // an unused optional field ("", -1, [], null, an unset flag) says nothing to a player
  const unused = (value) => value === "" || value === -1 || value === null || value === false || (Array.isArray(value) && !value.length);
  const fields = Object.entries(command).filter(([key, value]) => key !== "type" && key !== "expected_version" && key !== "card" && !unused(value));
  const words = fields.map(([key, value]) => (value === true && key in FLAGS ? _(FLAGS[key])
    : _("{field}: {value}", { field: fieldName(key), value: fieldText(value) })));
  const card = command.card ? ` ${nameOf(command.card)}` : "";
  const price = command.card && SPENDS.has(command.type) ? costText(itemOf(command.card)) : "";
  const extra = [price, ...words].filter(Boolean);
  return `${commandName(command.type)}${card}${extra.length ? ` (${extra.join("; ")})` : ""}`;
}

const sameCommand = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Commands that spend something (tokens, gold, coins, a card for good): one click opens a
// confirmation with the move in words and Cancel, never sends it at once.
export const SPENDS = new Set(["BuyCard", "PlayCard", "Contract", "SellMercenary", "CastSpell", "SellSpell", "BuyDeed", "ActivateDignitary", "PlayDeed"]);

// A render context: the seat's legal commands, which of them a table has put on an element
// ("claimed"), and act() to send one. The app lists the unclaimed ones as buttons, so every
// legal command stays reachable whatever a table shows.
export class Context {
  constructor({ seat = null, legal = [], act = null, readonly = false, envelope = null, seatName = (s) => _("Seat {number}", { number: s + 1 }) }) {
    Object.assign(this, { seat, legal, act, readonly, envelope, seatName });
    this.claimed = new Set();
  }

  commands(predicate) {
    return this.readonly ? [] : this.legal.filter(predicate);
  }

  claim(commands) {
    for (const command of commands) this.claimed.add(this.legal.indexOf(command));
    return commands;
  }

  unclaimed() {
    return this.readonly ? [] : this.legal.filter((unused, index) => !this.claimed.has(index));
  }

  // Make el send one of `commands` on click (a menu when more than one). label(command) names a choice.
  actionable(el, commands, label = commandLabel) {
    if (!commands.length) return el;
    this.claim(commands);
    el.classList.add("actionable");
    el.dataset.types = [...new Set(commands.map((c) => c.type))].join(" ");
    el.tabIndex = 0;
    el.title = commands.map(label).join("\n");
    if (el.tagName !== "BUTTON") el.setAttribute("role", "button");
    // the accessible name starts with what the element shows (a screen reader and a speech user say the same)
    const shown = el.textContent.trim();
    el.setAttribute("aria-label", `${shown ? `${shown}: ` : ""}${el.title.replace(/\n/g, "; ")}`);
    const run = (event) => {
      event.stopPropagation();
      if (commands.length === 1 && !SPENDS.has(commands[0].type)) this.act(commands[0]);
      else if (commands.length === 1) openMenu(el, commands, (c) => _("Confirm: {move}", { move: label(c) }), (command) => this.act(command));
      else openMenu(el, commands, label, (command) => this.act(command));
    };
    el.addEventListener("click", run);
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") run(event);
    });
    return el;
  }

  button(text, commands, extra = {}) {
    if (!commands.length) return null;
    return this.actionable(h("button.move", extra, text), commands);
  }

  isLegal(command) {
    return this.legal.some((c) => sameCommand(c, command));
  }
}

export function closeMenus() {
  for (const menu of document.querySelectorAll(".menu")) menu.remove();
}

// A new view closes a menu whose moves are no longer all legal: a confirmation never sends a stale move.
export function closeStaleMenus(legal) {
  const now = new Set(legal.map((c) => JSON.stringify(c)));
  for (const menu of document.querySelectorAll(".menu")) {
    if (!(menu.commands || []).every((c) => now.has(JSON.stringify(c)))) menu.remove();
  }
}

function openMenu(anchor, commands, label, choose) {
  closeMenus();
  const menu = h(
    "div.menu",
    { role: "menu", "aria-label": _("Choose a move") },
    commands.map((command) =>
      h(
        "button.menu-item",
        {
          role: "menuitem",
          dataset: { type: command.type },
          onclick: (event) => {
            event.stopPropagation();
            closeMenus();
            choose(command);
          },
        },
        label(command),
      ),
    ),
    h("button.menu-cancel", { onclick: (event) => (event.stopPropagation(), closeMenus()) }, _("Cancel")),
  );
  menu.commands = commands;
  const box = anchor.getBoundingClientRect();
  menu.style.left = `${Math.max(4, Math.min(box.left, innerWidth - 228)) + window.scrollX}px`; // kept on a phone's screen
  menu.style.top = `${box.bottom + window.scrollY + 4}px`;
  document.body.append(menu);
}

document.addEventListener("click", closeMenus);
document.addEventListener("keydown", (event) => event.key === "Escape" && closeMenus());

// The moves a table did not place on the table itself, grouped by kind, as buttons.
export function movesBar(ctx) {
  const left = ctx.unclaimed();
  if (!left.length) return null;
  const groups = new Map();
  for (const command of left) {
    if (!groups.has(command.type)) groups.set(command.type, []);
    groups.get(command.type).push(command);
  }
  return h(
    "section.moves",
    {},
    h("h3", {}, _("Your moves")),
    [...groups].map(([type, commands]) =>
      h(
        "div.move-group",
        {},
        h("span.move-kind", {}, commandName(type)),
        commands.map((command) => {
          const text = commands.length === 1 ? commandLabel(command) : commandLabel(command).replace(/^[^(]*\(|\)$/g, "");
          return ctx.actionable(h("button.move", {}, text || commandName(type)), [command]);
        }),
      ),
    ),
  );
}

// the way back to the lobby, in every page's header
export const home = () => h("a.home", { href: "#/" }, `⌂ ${_("Lobby")}`);

export function cardBack(extra = "") {
  return h(`div.card.back${extra ? `.${extra}` : ""}`, { role: "img", "aria-label": _("face-down card") });
}

// A pile of face-down cards with its count ("draw pile 12").
export function pile(count, label) {
  const words = _("{pile}: {count}", { pile: label, count });
  return h("div.pile", { title: words }, count ? cardBack() : h("div.card.empty"), h("span.count", {}, words));
}

// ---- card faces from the game's content (GET /v1/games/{id}/content)

let items = new Map(); // the id a view uses -> its content item
let terms = {};
let scoring = {};

export function useContent(content) {
  items = new Map();
  for (const item of content?.items || []) for (const id of item.ids) items.set(id, item);
  terms = content?.terms || {};
  scoring = content?.scoring || {};
}

export const itemOf = (id) => items.get(id) || null;
export const nameOf = (id) => itemOf(id)?.name || terms[id] || humanise(id);
export const term = (word) => terms[word] || humanise(word);
export const categoryName = (category) => scoring[category] || humanise(category); // a score's category

// a card's kind on its face: the content's word when it has one (Hero's Tavern's), else the client's
const KINDS = {
  curse: N_("curse"), customer: N_("customer"), dignitary: N_("dignitary"), favour: N_("royal favour"), mercenary: N_("mercenary"),
  people: N_("people track"), tavern: N_("tavern"), spell: N_("spell"), deed: N_("Dirty Deed"), goods: N_("goods"),
  patron: N_("patron"), staff: N_("staff"),
};
export const kindName = (kind) => terms[kind] || (kind in KINDS ? _(KINDS[kind]) : humanise(kind));

export function costText(item) {
  const parts = Object.entries(item?.cost || {}).map(([token, n]) => _("{count} {token}", { count: n, token: term(token) }));
  return parts.length ? _("costs {price}", { price: list(parts) }) : "";
}

// Every element that names a card or tile (data-card) gets its content: the name, the cost and the
// effect text on its face, the same as a tooltip and as its accessible name.
export function decorate(root) {
  for (const el of root.querySelectorAll("[data-card], [data-tip]")) {
    const item = itemOf(el.dataset.card ?? el.dataset.tip);
    if (!item || el.dataset.decorated) continue;
    el.dataset.decorated = "true";
    const cost = costText(item);
    const words = [item.name, cost, item.text].filter(Boolean).join(". ");
    const choices = el.classList.contains("actionable") ? el.title : "";
    el.title = choices ? `${words}\n\n${choices}` : words;
    if (!el.getAttribute("role")) el.setAttribute("role", choices ? "button" : "group");
    if (el.dataset.tip !== undefined) {
      // a track or a tavern: its own drawing stays; its name and text are added to what it shows
      el.setAttribute("aria-label", `${el.textContent.trim()} ${words}`.trim());
      continue;
    }
    if (!el.classList.contains("card")) {
      el.textContent = item.name;
      el.setAttribute("aria-label", choices ? `${words}: ${choices.replace(/\n/g, "; ")}` : words);
      continue;
    }
    el.removeAttribute("aria-label"); // a card's face says it all: name, kind, cost and effect
    const name = el.querySelector(".name");
    if (name) name.textContent = item.name;
    const group = el.querySelector(".group");
    if (group) group.textContent = kindName(item.kind);
    if (cost && !el.querySelector(".cost")) el.append(h("div.cost", {}, cost));
    el.append(h("div.effect", {}, item.text));
  }
}
