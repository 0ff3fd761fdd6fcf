// Charts drawn in SVG, sized for a phone (the drawing scales with the page's width, its words
// stay readable), each with the numbers behind it as a table for screen readers and for anyone
// who wants the figures: a line (the review's expected final score through the game, a player's
// scores and mean cost per decision over time) and a histogram (a player's scores against the
// strong computer player's).
import { html } from "./lib.js";
import { lang, num, t, tn } from "./i18n.js";

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
 * ``title``: what the chart shows, ``valueName`` the column of values in the table; ``dots``: a
 * dot at every point (few points, each one a game); ``digits``: the table's decimals; ``second``:
 * { values (0 to 1, one per point), name }, a second line (dashed) on its own axis in percent at
 * the right (the review's chance to win).
 */
export function LineChart({ points, marked = [], title, valueName, groupName, id = null, dots = false, digits = 1, second = null }) {
  const values = points.map((p) => p.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max((high - low) * 0.08, 2);
  const bottom = low - pad;
  const top = high + pad;
  const right = second ? RIGHT + 30 : RIGHT;
  const x = (i) => LEFT + (points.length > 1 ? (i * (WIDTH - LEFT - right)) / (points.length - 1) : 0);
  const y2 = (share) => TOP + (1 - share) * (HEIGHT - TOP - BOTTOM);
  const percent = (share) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(share);
  const y = (v) => TOP + ((top - v) * (HEIGHT - TOP - BOTTOM)) / (top - bottom);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const groups = points.map((p, i) => (i === 0 || p.group !== points[i - 1].group ? i : -1)).filter((i) => i >= 0);
  const first = values[0];
  const last = values[values.length - 1];
  const summary = t("{title}: from {first} to {last}, between {low} and {high}",
    { title, first: num(first), last: num(last), low: num(low), high: num(high) })
    + (second ? ` · ${t("{name}: from {first} to {last}", { name: second.name, first: percent(second.values[0]),
      last: percent(second.values[second.values.length - 1]) })}` : "");
  return html`<figure class="chart" id=${id}>
    <svg viewBox=${`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label=${summary} class="line-chart">
      ${ticks(bottom, top).map((v) => html`<g class="tick">
        <line x1=${LEFT} x2=${WIDTH - right} y1=${y(v)} y2=${y(v)} />
        <text x=${LEFT - 4} y=${y(v) + 4} text-anchor="end">${num(v)}</text></g>`)}
      ${dots ? points.map((_, i) => html`<line class="point-tick" x1=${x(i)} x2=${x(i)} y1=${HEIGHT - BOTTOM} y2=${HEIGHT - BOTTOM + 4} />`) : null}
      ${groups.map((i) => html`<g class="group">
        <line x1=${x(i)} x2=${x(i)} y1=${TOP} y2=${HEIGHT - BOTTOM} />
        <text x=${x(i) + 2} y=${HEIGHT - BOTTOM + 14}>${points[i].group}</text></g>`)}
      <text class="axis-name" x=${WIDTH - right} y=${HEIGHT - 2} text-anchor="end">${groupName}</text>
      <polyline class="series" points=${line} fill="none" />
      ${second ? html`<g class="second-axis">${[0, 0.5, 1].map((v) => html`<text x=${WIDTH - right + 4} y=${y2(v) + 4}>${percent(v)}</text>`)}</g>
        <polyline class="series second-series" points=${second.values.map((v, i) => `${x(i).toFixed(1)},${y2(v).toFixed(1)}`).join(" ")}
          fill="none" stroke-dasharray="4 3" opacity="0.7" />` : null}
      ${dots ? points.map((p, i) => html`<circle class="point" cx=${x(i)} cy=${y(p.value)} r="3.2" />`) : null}
      ${marked.map((i) => html`<circle class="marked" cx=${x(i)} cy=${y(points[i].value)} r="4.5" />`)}
    </svg>
    <figcaption>${summary}</figcaption>
    <details class="chart-numbers"><summary>${t("The numbers behind the chart")}</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label=${t("The numbers behind the chart")}><table>
        <thead><tr><th scope="col">${t("When")}</th><th scope="col">${groupName}</th><th scope="col">${valueName}</th>${
          second ? html`<th scope="col">${second.name}</th>` : null}</tr></thead>
        <tbody>${points.map((p, i) => html`<tr><th scope="row">${p.label}</th><td>${p.group}</td><td>${num(p.value, digits)}</td>${
          second ? html`<td>${percent(second.values[i])}</td>` : null}</tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}

/** A whole step (1, 2, 2.5 or 5 times a power of ten) that cuts ``low``–``high`` into at most ``count`` bins. */
function binWidth(low, high, count = 12) {
  const raw = Math.max((high - low) / count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw && Number.isInteger(s));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Distributions side by side: ``series`` [{ name, values, kind (a class: its colour) }], each
 * bar the share of that series' values in the bin, so that 5 games and 200 compare; the table
 * gives each bin's count and share. ``valueName``: what the values are (the bins' column).
 */
export function Histogram({ series, title, valueName, id = null }) {
  const all = series.flatMap((s) => s.values);
  const step = binWidth(Math.min(...all), Math.max(...all));
  const first = Math.floor(Math.min(...all) / step) * step;
  const count = Math.floor((Math.max(...all) - first) / step) + 1;
  const bins = Array.from({ length: count }, (_, i) => first + i * step);
  const shares = series.map((s) => bins.map((b) => s.values.filter((v) => v >= b && v < b + step).length));
  const top = Math.max(...shares.flatMap((c, k) => c.map((n) => n / series[k].values.length)), 0.05);
  const height = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / count;
  const bar = (slot - 2) / series.length;
  const y = (share) => TOP + height - (share / top) * height;
  const percent = (share) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(share);
  const summary = t("{title}: {details}", {
    title,
    details: series.map((s) => tn("{name}, {n} game, median {median}", "{name}, {n} games, median {median}",
      s.values.length, { name: s.name, median: num(median(s.values)) })).join(" · "),
  });
  const labelEvery = Math.ceil(count / 6);
  return html`<figure class="chart" id=${id}>
    <svg viewBox=${`0 0 ${WIDTH} ${HEIGHT + 22}`} role="img" aria-label=${summary} class="line-chart histogram">
      ${ticks(0, top * 100, 3).map((v) => html`<g class="tick">
        <line x1=${LEFT} x2=${WIDTH - RIGHT} y1=${y(v / 100)} y2=${y(v / 100)} />
        <text x=${LEFT - 4} y=${y(v / 100) + 4} text-anchor="end">${percent(v / 100)}</text></g>`)}
      ${bins.map((b, i) => html`<g class="bin">
        ${series.map((s, k) => shares[k][i] ? html`<rect class=${`bar ${s.kind}`} x=${LEFT + i * slot + 1 + k * bar}
          y=${y(shares[k][i] / s.values.length)} width=${Math.max(bar - 1, 1)}
          height=${TOP + height - y(shares[k][i] / s.values.length)} />` : null)}
        ${i % labelEvery === 0 ? html`<text x=${LEFT + i * slot} y=${HEIGHT - BOTTOM + 14}>${num(b)}</text>` : null}</g>`)}
      <text class="axis-name" x=${WIDTH - RIGHT} y=${HEIGHT - 2} text-anchor="end">${valueName}</text>
      ${series.map((s, k) => html`<g class="legend"><rect class=${`bar ${s.kind}`} x=${LEFT + k * 150} y=${HEIGHT + 8} width="10" height="10" />
        <text x=${LEFT + k * 150 + 14} y=${HEIGHT + 17}>${s.name}</text></g>`)}
    </svg>
    <figcaption>${summary}</figcaption>
    <details class="chart-numbers"><summary>${t("The numbers behind the chart")}</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label=${t("The numbers behind the chart")}><table>
        <thead><tr><th scope="col">${valueName}</th>${series.map((s) => html`<th scope="col">${s.name}</th>`)}</tr></thead>
        <tbody>${bins.map((b, i) => html`<tr><th scope="row">${t("{low} to {high}", { low: num(b), high: num(b + step - 1) })}</th>
          ${series.map((s, k) => html`<td>${num(shares[k][i])} (${percent(shares[k][i] / s.values.length)})</td>`)}</tr>`)}</tbody>
      </table></div>
    </details>
  </figure>`;
}
