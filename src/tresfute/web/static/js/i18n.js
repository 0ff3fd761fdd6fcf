// The page's words come from the server's gettext catalogue (/api/strings): t(text) marks a
// message, tn(singular, plural, n) one with a number, N_(text) one translated later. Numbers and plural
// forms follow the language through Intl.

const LANGUAGES = ["fr", "en"];
const saved = localStorage.getItem("tresfute.lang");
export const lang = LANGUAGES.includes(saved) ? saved : "fr";
let strings = {};

export function setStrings(loaded) {
  strings = loaded || {};
}

export function chooseLanguage(value) {
  localStorage.setItem("tresfute.lang", LANGUAGES.includes(value) ? value : "fr");
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
/** A number as the language writes it (decimal comma in French, a minus sign, no grouping surprise). */
export function num(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (!formats.has(digits)) {
    formats.set(digits, new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  }
  return formats.get(digits).format(value);
}

export const gameName = (id) => (id === "tres-fute" ? t("That's Pretty Clever!") : t("Twice as Clever!"));

/** The server's instructions are phrases ("choose a die of the roll"): shown alone, a sentence. */
export const sentence = (text) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : "");
