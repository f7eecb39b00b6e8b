// The fallback table for any game: its view as nested panels; every string the seat may act on
// (a card id a legal command names) is clickable, and the other moves are buttons below.
import { _ } from "../i18n.js";
import { h, humanise, waitingFor, yesNo } from "../ui.js";

function commandsNaming(ctx, text) {
  if (!text) return []; // an empty string names nothing (commands use "" for an unused field)
  return ctx.commands((command) =>
    Object.entries(command).some(([key, value]) => key !== "type" && (value === text || (Array.isArray(value) && value.length === 1 && value[0] === text))),
  );
}

function leaf(value, ctx) {
  if (value === null || value === undefined) return h("span.nil", {}, "–");
  if (typeof value === "boolean") return h("span.bool", {}, yesNo(value));
  if (typeof value === "string") {
    const chip = h("span.chip", {}, value);
    const commands = commandsNaming(ctx, value);
    return commands.length ? ctx.actionable(chip, commands) : chip;
  }
  return h("span.num", {}, String(value));
}

function node(value, ctx, depth) {
  if (Array.isArray(value)) {
    if (!value.length) return h("span.nil", {}, _("none"));
    if (value.every((item) => item === null || typeof item !== "object")) return h("div.chips", {}, value.map((item) => leaf(item, ctx)));
    return h("div.panels", {}, value.map((item, index) => h("div.panel", {}, h("div.panel-title", {}, `#${index + 1}`), node(item, ctx, depth + 1))));
  }
  if (value && typeof value === "object") {
    return h(
      "dl.fields",
      { class: depth ? "" : "top" },
      Object.entries(value).map(([key, item]) => [h("dt", {}, humanise(key)), h("dd", {}, node(item, ctx, depth + 1))]),
    );
  }
  return leaf(value, ctx);
}

export function render(view, ctx) {
  return h("div.generic-table", {}, node(view, ctx, 0));
}

// Whose move it is, when the view names it under a usual key (a seat or a list of seats).
const WAITING_KEYS = ["waiting_for", "to_act", "active", "current", "turn_seat"];

export function status(view, ctx) {
  if (ctx.legal.length) return _("Your move");
  const key = WAITING_KEYS.find((k) => k in view && view[k] !== null);
  if (!key) return null;
  const seats = (Array.isArray(view[key]) ? view[key] : [view[key]]).filter((s) => Number.isInteger(s) && s >= 0);
  return seats.length ? waitingFor(seats, ctx) : null;
}
