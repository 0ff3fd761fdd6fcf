// A line chart drawn in SVG, sized for a phone (its drawing scales with the page's width, its
// words stay readable), with the numbers behind it as a table for screen readers and for anyone
// who wants the figures. Used by the review: the expected final score through the game.
import { html } from "./lib.js";
import { num, t } from "./i18n.js";

const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 38;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 26;

/** About ``count`` round steps between ``low`` and ``high`` (1, 2 or 5 times a power of ten). */
function ticks(low, high, count = 4) {
  const span = Math.max(high - low, 1);
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const first = Math.ceil(low / step) * step;
  const found = [];
  for (let v = first; v <= high + 1e-9; v += step) found.push(v);
  return found;
}

/**
 * ``points``: [{ value, label (the point's name in the table), group (the x axis' mark, e.g. the
 * round: marked where it changes) }]; ``marked``: indexes of points to ring (the costliest);
 * ``title``: what the chart shows, ``valueName`` the column of values in the table.
 */
export function LineChart({ points, marked = [], title, valueName, groupName, id = null }) {
  const values = points.map((p) => p.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max((high - low) * 0.08, 2);
  const bottom = low - pad;
  const top = high + pad;
  const x = (i) => LEFT + (points.length > 1 ? (i * (WIDTH - LEFT - RIGHT)) / (points.length - 1) : 0);
  const y = (v) => TOP + ((top - v) * (HEIGHT - TOP - BOTTOM)) / (top - bottom);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const groups = points.map((p, i) => (i === 0 || p.group !== points[i - 1].group ? i : -1)).filter((i) => i >= 0);
  const first = values[0];
  const last = values[values.length - 1];
  const summary = t("{title}: from {first} to {last}, between {low} and {high}",
    { title, first: num(first), last: num(last), low: num(low), high: num(high) });
  return html`<figure class="chart" id=${id}>
    <svg viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label=${summary} class="line-chart">
      ${ticks(bottom, top).map((v) => html`<g class="tick">
        <line x1=${LEFT} x2=${WIDTH - RIGHT} y1=${y(v)} y2=${y(v)} />
        <text x=${LEFT - 4} y=${y(v) + 4} text-anchor="end">${num(v)}</text></g>`)}
      ${groups.map((i) => html`<g class="group">
        <line x1=${x(i)} x2=${x(i)} y1=${TOP} y2=${HEIGHT - BOTTOM} />
        <text x=${x(i) + 2} y=${HEIGHT - BOTTOM + 14}>${points[i].group}</text></g>`)}
      <text class="axis-name" x=${WIDTH - RIGHT} y=${HEIGHT - 2} text-anchor="end">${groupName}</text>
      <polyline class="series" points=${line} fill="none" />
      ${marked.map((i) => html`<circle class="marked" cx=${x(i)} cy=${y(points[i].value)} r="4.5" />`)}
    </svg>
    <figcaption>${summary}</figcaption>
    <details class="chart-numbers"><summary>${t("The numbers behind the chart")}</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label=${t("The numbers behind the chart")}><table>
        <thead><tr><th scope="col">${t("When")}</th><th scope="col">${groupName}</th><th scope="col">${valueName}</th></tr></thead>
        <tbody>${points.map((p) => html`<tr><th scope="row">${p.label}</th><td>${p.group}</td><td>${num(p.value, 1)}</td></tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}
