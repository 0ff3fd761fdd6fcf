// Every picture of the page, drawn here as SVG (no glyph a font may lack): the bonuses as the
// printed sheet shows them, the dice with their pips, the pen's marks, stars and arrows.
import { html } from "./lib.js";

export const COLOURS = {
  w: "#ffffff", s: "#a7b0ba", y: "#f5cf1d", b: "#2567d2", g: "#1f7f38", o: "#f07d16", p: "#8440bd", k: "#ea5a9e",
  black: "#2a2a2a",
};
// The ink that reads on each colour.
const LIGHT = new Set(["w", "s", "y", "o", "k"]);
export const inkOn = (letter) => (LIGHT.has(letter) ? "#1b1b1b" : "#ffffff");
const PEN = "#1d2f86";

const svg = (label, body, cls = "pic") => html`
  <svg class=${cls} viewBox="0 0 24 24" role=${label ? "img" : null} aria-label=${label || null}
    aria-hidden=${label ? null : "true"} focusable="false">${body}</svg>`;

const crossLines = (colour, width = 2.6, inset = 6) => html`
  <path d=${`M${inset} ${inset}L${24 - inset} ${24 - inset}M${24 - inset} ${inset}L${inset} ${24 - inset}`}
    stroke=${colour} stroke-width=${width} stroke-linecap="round" fill="none" />`;

const square = (fill) => html`<rect x="1.5" y="1.5" width="21" height="21" rx="4" fill=${fill} stroke="#00000055" />`;

const word = (text, colour, size = 14) => html`
  <text x="12" y=${12 + size * 0.36} text-anchor="middle" font-size=${size} font-weight="700"
    font-family="system-ui, sans-serif" fill=${colour}>${text}</text>`;

/** An entry bonus: the target area's shape (MARKS) large in its top left corner, and a cross, a
 * number or a "?" in its bottom right, on the area's colour: told apart without the colour too
 * (a blue X and a green X are a square and a disc), the cross never drawn over the shape. */
function entryBody(picture) {
  const colour = COLOURS[picture.area];
  const ink = inkOn(picture.area);
  const shape = html`<g class=${`bonus-shape mark-${picture.area}`} transform="translate(1.8 1.8) scale(.5)" color=${ink}>${MARKS[picture.area]}</g>`;
  const sign = picture.value !== null && picture.value !== undefined ? String(picture.value) : picture.mark === "?" ? "?" : null;
  const corner = sign !== null
    ? html`<text class="bonus-sign" x="16.6" y="21.2" text-anchor="middle" font-size=${sign.length > 1 ? 10 : 13} font-weight="700"
        font-family="system-ui, sans-serif" fill=${ink}>${sign}</text>`
    : html`<path class="bonus-sign" d="M13.2 13.2L20 20M20 13.2L13.2 20" stroke=${ink} stroke-width="2.6" stroke-linecap="round" fill="none" />`;
  return [square(colour), shape, corner];
}

function choiceBody(picture) {
  const numbers = picture.options.filter((o) => o.value !== null && o.value !== undefined);
  if (numbers.length === 0) return [square(COLOURS.black), word("?", "#fff", 16)];
  return [
    square(COLOURS.black),
    html`<path d="M5 5L11 11M11 5L5 11" stroke="#fff" stroke-width="2" stroke-linecap="round" />`,
    html`<text x="16.5" y="21" text-anchor="middle" font-size="10" font-weight="700" fill="#fff">${numbers[0].value}</text>`,
    html`<path d="M20 4L4 20" stroke="#ffffff88" stroke-width="1" />`,
  ];
}

const FOX = [
  html`<path d="M2.5 3.5L8.5 8.5H15.5L21.5 3.5L20.5 13L12 21L3.5 13Z" fill="#e8641b" stroke="#7a2e05" stroke-width="1" stroke-linejoin="round" />`,
  html`<path d="M3.8 13L12 21L9.6 14.2Z M20.2 13L12 21L14.4 14.2Z" fill="#fff" />`,
  html`<circle cx="9" cy="12" r="1.2" fill="#1b1b1b" /><circle cx="15" cy="12" r="1.2" fill="#1b1b1b" />`,
  html`<circle cx="12" cy="19.3" r="1.3" fill="#1b1b1b" />`,
];

const ACTION = {
  reroll: [
    html`<circle cx="12" cy="12" r="10.5" fill="#fff" stroke="#333" />`,
    html`<path d="M17.5 12a5.5 5.5 0 1 1-1.6-3.9" stroke="#1b1b1b" stroke-width="2.2" fill="none" stroke-linecap="round" />`,
    html`<path d="M18.6 5.2L18.4 10.2L13.6 9.4Z" fill="#1b1b1b" />`,
  ],
  plus_one: [
    html`<rect x="2" y="2" width="20" height="20" rx="5" fill="#fff" stroke="#1b1b1b" stroke-width="1.6" />`,
    word("+1", "#1b1b1b", 12),
  ],
  reprise: [
    html`<circle cx="12" cy="12" r="10.5" fill="#fff" stroke="#333" />`,
    html`<path d="M17 17V11a4 4 0 0 0-4-4H8" stroke="#1b1b1b" stroke-width="2.2" fill="none" stroke-linecap="round" />`,
    html`<path d="M5.5 7L9.5 3.8V10.2Z" fill="#1b1b1b" />`,
    html`<path d="M6 19H18" stroke="#1b1b1b" stroke-width="1.6" stroke-linecap="round" />`,
  ],
};

/** A printed bonus (``bonus`` from /api/layout: its name, and the picture to draw). */
export function BonusPicture({ bonus, used = false }) {
  if (!bonus) return null;
  const picture = bonus.picture;
  let body;
  if (picture.kind === "entry") body = entryBody(picture);
  else if (picture.kind === "choice") body = choiceBody(picture);
  else if (picture.kind === "fox") body = FOX;
  else body = ACTION[picture.action];
  return svg(bonus.name, [body, used ? crossLines("#1b1b1bcc", 1.8, 3) : null], `pic bonus${used ? " used" : ""}`);
}

export const ActionSymbol = ({ action, label }) => svg(label, ACTION[action]);
export const FoxPicture = ({ label }) => svg(label, FOX);

const PIPS = {
  1: [[12, 12]], 2: [[7, 7], [17, 17]], 3: [[7, 7], [12, 12], [17, 17]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]],
  5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]], 6: [[7, 6.5], [17, 6.5], [7, 12], [17, 12], [7, 17.5], [17, 17.5]],
};

/** A die as a coloured cube seen from above: its pips, or a "?" before it is rolled. */
export function DieFace({ letter, value, label, plain = false }) {
  const ink = inkOn(letter);
  return svg(label, [
    html`<rect x="1" y="1" width="22" height="22" rx="5" fill=${COLOURS[letter]} stroke="#1b1b1b" stroke-width="1.2" />`,
    plain ? null : value ? PIPS[value].map(([x, y]) => html`<circle cx=${x} cy=${y} r="2.2" fill=${ink} />`) : word("?", ink, 13),
  ], "pic die-face");
}

// Each colour's shape, so that dice and areas are told apart without colour too (drawn in the
// ink around it): white ring, silver diamond, yellow triangle, blue square, green disc, orange
// plus, purple star, pink heart.
const MARKS = {
  w: html`<circle cx="12" cy="12" r="7.5" fill="none" stroke="currentColor" stroke-width="3" />`,
  s: html`<path d="M12 2.5L21.5 12L12 21.5L2.5 12Z M12 7.5L7.5 12L12 16.5L16.5 12Z" fill="currentColor" fill-rule="evenodd" />`,
  y: html`<path d="M12 2.5L22 20.5H2Z" fill="currentColor" />`,
  b: html`<rect x="4" y="4" width="16" height="16" fill="currentColor" />`,
  g: html`<circle cx="12" cy="12" r="9" fill="currentColor" />`,
  o: html`<path d="M9 2.5H15V9H21.5V15H15V21.5H9V15H2.5V9H9Z" fill="currentColor" />`,
  p: html`<path d="M12 1.5L14.9 8.6L22.5 9.2L16.7 14.1L18.5 21.6L12 17.6L5.5 21.6L7.3 14.1L1.5 9.2L9.1 8.6Z" fill="currentColor" />`,
  k: html`<path d="M12 21.5L3.2 12.6A5.2 5.2 0 0 1 12 5.6A5.2 5.2 0 0 1 20.8 12.6Z" fill="currentColor" />`,
};

/** A colour's shape (MARKS): beside a die's value, in an area's title, on a silver row. */
export const ColourMark = ({ letter }) => (MARKS[letter] ? svg(null, MARKS[letter], `mark mark-${letter}`) : null);

/** The pen's marks on a cell: a cross, a circle, or a circle then a cross (Vraiment très futé's yellow). */
export function PenMark({ circled, crossed }) {
  return svg(null, [
    circled ? html`<ellipse cx="12" cy="12.3" rx="9.6" ry="9" fill="none" stroke=${PEN} stroke-width="2" transform="rotate(-8 12 12)" />` : null,
    crossed ? html`<path d="M5.5 6.2C9 9.5 14 14.5 18.7 18.2M18.2 5.6C14 10 10 13.8 5.8 18.6" stroke=${PEN} stroke-width="2.6" stroke-linecap="round" fill="none" />` : null,
  ], "pen");
}

export const Star = ({ filled }) => svg(null, html`<path d="M12 2.5L14.8 8.8L21.6 9.4L16.5 13.9L18 20.6L12 17.1L6 20.6L7.5 13.9L2.4 9.4L9.2 8.8Z"
  fill=${filled ? "#f2b705" : "none"} stroke="#8a6a00" stroke-width="1.4" stroke-linejoin="round" />`, `star${filled ? " filled" : ""}`);

const ARROWS = {
  first: "M6 5V19M19 5L9 12L19 19Z",
  previous: "M17 5L7 12L17 19Z",
  next: "M7 5L17 12L7 19Z",
  last: "M18 5V19M5 5L15 12L5 19Z",
};
export const Arrow = ({ to }) => svg(null, html`<path d=${ARROWS[to]} fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round" />`, "arrow");
