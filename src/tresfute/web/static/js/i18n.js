// The page's words come from the server's gettext catalogue (/api/strings): t(text) marks a
// message, tn(singular, plural, n) one with a number, N_(text) one translated later. Numbers, dates
// and plural forms follow the language through Intl.
//
// The language: the one chosen in the header (kept in this browser, and in a cookie the server
// reads), else the page's own, which the server chose from the browser's languages
// (Accept-Language), then its default (serve --lang), then French.
//
// What the menus offer (the languages' names, the games with their rules options, the computer
// players) comes from the server too (/api/choices, setChoices): every list is declared once, in
// Python; the languages' codes are on the page itself (data-languages), read before anything loads.

export const LANGUAGES = (document.documentElement.dataset.languages || "fr").split(" ");
const saved = localStorage.getItem("tresfute.lang");
const served = document.documentElement.lang;
export const lang = LANGUAGES.includes(saved) ? saved : LANGUAGES.includes(served) ? served : "fr";
/** The server's version of the page's files: what does not change with it is cached for ever. */
export const version = document.documentElement.dataset.version || "";
let strings = {};

export function setStrings(loaded) {
  strings = loaded || {};
}

let offered = { languages: [], games: [], players: [], table_player: null };
/** What the menus offer (/api/choices): { languages, games, players, table_player }. */
export const choices = () => offered;
export function setChoices(loaded) {
  offered = loaded || offered;
}

export function chooseLanguage(value) {
  const chosen = LANGUAGES.includes(value) ? value : "fr";
  localStorage.setItem("tresfute.lang", chosen);
  document.cookie = `tresfute_lang=${chosen}; path=/; max-age=31536000; samesite=lax`;
}

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));

export const t = (text, values = {}) => fill(typeof strings[text] === "string" ? strings[text] : text, values);
export const N_ = (text) => text;

const plurals = new Intl.PluralRules(lang);
export const tn = (singular, plural, n, values = {}) => {
  const forms = Array.isArray(strings[singular]) ? strings[singular] : [singular, plural];
  return fill(forms[plurals.select(Math.abs(n)) === "one" ? 0 : 1], { n: num(n), ...values });
};

const formats = new Map();
/** A number as the language writes it (decimal comma in French, a minus sign, no grouping surprise;
 * never "-0": no fox times a negative area is 0, and so is a rounded -0.4). */
export function num(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (!formats.has(digits)) {
    formats.set(digits, new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0, signDisplay: "negative" }));
  }
  return formats.get(digits).format(value);
}

const dates = new Map();
/** A date as the language writes it (27/11/2026, 11/27/2026, 27.11.2026); ``short``: day and month
 * only (27/11, 11/27, 27.11.). ``value``: a Date, an ISO text (2026-11-27) or milliseconds. */
export function date(value, { short = false, time = false } = {}) {
  if (value === null || value === undefined || value === "") return "–";
  const when = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  if (Number.isNaN(when.getTime())) return String(value);
  const key = `${short}${time}`;
  if (!dates.has(key)) {
    const options = short ? { day: "numeric", month: "numeric" } : { day: "2-digit", month: "2-digit", year: "numeric" };
    if (time) Object.assign(options, { hour: "2-digit", minute: "2-digit" });
    dates.set(key, new Intl.DateTimeFormat(lang, options));
  }
  return dates.get(key).format(when);
}

/** A game's published name in the page's language (Très futé, That's Pretty Clever!, Ganz schön clever). */
export const gameName = (id) => offered.games.find((g) => g.id === id)?.name ?? id;

/** The server's instructions are phrases ("choose a die of the roll"): shown alone, a sentence. */
export const sentence = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "");
