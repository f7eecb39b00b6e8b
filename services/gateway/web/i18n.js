// The client's texts in the player's language. The message ids are the English texts, written in
// the code as _("Waiting for {names}", { names }) and n_("{count} card", "{count} cards", count);
// tools/client_catalogs.py extracts them with Babel into gateway/catalogs/client.pot, keeps each language's
// gettext catalog (catalogs/<lang>/LC_MESSAGES/client.po, the translators' file) and compiles it to
// locales/<lang>.json, which this module loads (docs/web-client.md). Numbers, dates, lists and
// plural forms follow the language through Intl.

export const LANGUAGES = { en: "English", fr: "Français" }; // each name in its own language
const DEFAULT = "en";
const KEY = "tavern.language";

let current = DEFAULT;
let messages = {};
let plurals = new Intl.PluralRules(DEFAULT);
const listeners = new Set();

// The saved choice, else the first of the browser's languages the client has, else English.
export function preferred() {
  const saved = localStorage.getItem(KEY);
  if (saved in LANGUAGES) return saved;
  const asked = navigator.languages?.length ? navigator.languages : [navigator.language || DEFAULT];
  return asked.map((tag) => tag.toLowerCase().split("-")[0]).find((tag) => tag in LANGUAGES) || DEFAULT;
}

export async function load(language) {
  const response = await fetch(`locales/${language}.json`);
  if (!response.ok) throw new Error(`no catalog for ${language}: ${response.status}`);
  messages = (await response.json()).messages;
  current = language;
  plurals = new Intl.PluralRules(language);
  document.documentElement.lang = language;
}

export const language = () => current;

export const number = (n, options = {}) => new Intl.NumberFormat(current, options).format(n);
export const date = (value) => new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(new Date(value));
// "A, B and C" / "A, B et C"
export const list = (items) => new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items.map(String));

// {name} placeholders filled after translation; a number is written the language's way
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? number(value) : String(value);
  });
}

export function _(id, params = {}) {
  const text = messages[id];
  return fill(typeof text === "string" && text ? text : id, params);
}

// The catalog holds a plural message's forms by Intl's plural category ("one", "many", "other").
export function n_(singular, plural, count, params = {}) {
  const forms = messages[singular];
  const text = forms && typeof forms === "object" ? forms[plurals.select(count)] || forms.other : count === 1 ? singular : plural;
  return fill(text, { count, ...params });
}

// marks a message id for extraction where it is translated later (a table of names)
export const N_ = (id) => id;

// Switch language: load its catalog, remember the choice, then let the pages draw themselves again.
export async function choose(language) {
  if (!(language in LANGUAGES)) return;
  await load(language);
  localStorage.setItem(KEY, language);
  for (const listener of listeners) await listener(language);
}

export const onChange = (listener) => listeners.add(listener);
