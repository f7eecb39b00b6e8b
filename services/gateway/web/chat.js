// The table chat beside a match (docs/chat.md): the caller's channel (a seat: the players'; the
// spectator token: the spectators'), read with GET /chat?after=ID when the view stream says it has
// new lines (its `chat` event: poll()), and every few seconds besides while the page is shown (a
// finished match has no stream; a stream reconnecting may miss an event). Each line from someone
// else has Mute (this browser hides that sender's lines: localStorage, per match), Block (a seat's:
// the server never gives this seat that sender's lines again) and Report (kept for the moderators).
import * as api from "./api.js";
import { _ } from "./i18n.js";
import { h } from "./ui.js";

const EVERY_MS = 10000;
const KEPT = 200; // lines drawn at most

const mutedKey = (id) => `tavern.chat.muted.${id}`;

function mutedOf(id) {
  try {
    return new Set(JSON.parse(localStorage.getItem(mutedKey(id)) || "[]"));
  } catch {
    return new Set();
  }
}

// chatPanel(id, token, seat, namer): {box, stop}; ``namer(seat)`` names a seat as the table does
export function chatPanel(id, token, seat, namer) {
  const muted = mutedOf(id);
  const lines = new Map(); // line id -> line, in order
  const list = h("ol.chat-list", { "aria-live": "polite", "aria-relevant": "additions" });
  const problem = h("p.chat-error", { role: "alert", hidden: true });
  const text = h("input.chat-text", { type: "text", maxlength: 500, "aria-label": _("Message"), placeholder: _("Say something to the table") });
  const name = seat === null ? h("input.chat-name", { type: "text", maxlength: 40, "aria-label": _("Your name"), placeholder: _("Your name") }) : null;
  const form = h("form.chat-form", { onsubmit: (event) => { event.preventDefault(); say(); } }, name, text, h("button", { type: "submit" }, _("Send")));
  const title = seat === null ? _("Spectators' chat") : _("Players' chat");
  const box = h("section#chat.chat", { "aria-label": title }, h("h3", {}, title), list, problem, form);
  let after = "0-0";
  let timer = null;
  let stopped = false;

  const show = (error) => {
    problem.hidden = !error;
    problem.textContent = error ? error.detail || String(error) : "";
  };
  const who = (line) => {
    if (line.sender === "moderator") return _("Moderator");
    if (/^\d+$/.test(line.sender)) return line.name || namer(Number(line.sender));
    return line.name || _("Spectator");
  };

  function draw() {
    const shown = [...lines.values()].filter((line) => line.kind === "said" && !muted.has(line.sender)).slice(-KEPT);
    list.replaceChildren(...shown.map(lineItem));
  }

  function lineItem(line) {
    const mine = seat !== null && line.sender === String(seat);
    const words = line.removed ? h("em.chat-removed", {}, _("removed by a moderator")) : h("span.chat-words", {}, line.text);
    const buttons = mine || line.removed ? [] : [
      h("button.chat-mute", { type: "button", onclick: () => mute(line.sender) }, _("Mute")),
      seat === null ? null : h("button.chat-block", { type: "button", onclick: () => block(line.sender) }, _("Block")),
      h("button.chat-report", { type: "button", onclick: () => report(line) }, _("Report")),
    ];
    return h("li.chat-line", { dataset: { id: line.id, sender: line.sender } }, h("b.chat-who", {}, `${who(line)}: `), words, h("span.chat-actions", {}, buttons));
  }

  function mute(sender) {
    muted.add(sender);
    localStorage.setItem(mutedKey(id), JSON.stringify([...muted]));
    draw();
  }

  async function block(sender) {
    try {
      await api.chatBlock(id, token, sender, true);
      for (const [key, line] of lines) if (line.sender === sender) lines.delete(key);
      draw();
    } catch (error) {
      show(error);
    }
  }

  async function report(line) {
    const reason = window.prompt(_("Why report this message?"), "");
    if (reason === null) return;
    try {
      await api.chatReport(id, token, line.id, reason);
      show({ detail: _("Reported: the moderators will look at it.") });
    } catch (error) {
      show(error);
    }
  }

  async function say() {
    if (!text.value.trim()) return;
    try {
      await api.chatSay(id, token, text.value, name ? name.value : "");
      text.value = "";
      show(null);
      await poll();
    } catch (error) {
      show(error); // 429: the message says when to try again
    }
  }

  let reading = Promise.resolve();
  // one read at a time: the stream's events and the timer may ask at once
  const poll = () => (reading = reading.then(read));

  async function read() {
    const page = await api.chat(id, token, after).catch(() => null);
    if (!page || stopped) return;
    for (const line of page.lines) {
      lines.set(line.id, line);
      if (line.kind === "removed" && lines.has(line.target)) lines.set(line.target, { ...lines.get(line.target), text: "", removed: true });
      after = line.id;
    }
    if (page.lines.length) draw();
  }

  async function loop() {
    if (stopped) return;
    if (!document.hidden) await poll();
    timer = setTimeout(loop, EVERY_MS);
  }
  loop();
  return {
    box,
    poll,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
