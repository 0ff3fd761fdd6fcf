// The score sheet as printed, drawn from the rules' own sheet description (/api/layout): each
// area a band in its colour, cells with their printed numbers, bonuses as pictures, the round
// and action tracks. Every component is a function of the layout and the sheet's state.
// ``play`` (the own sheet in play) holds the cells that take a move now (``targets``: a key
// "area:rRcC" or "area:next" to its moves), the cells to mark (hint, last move; in a review the
// move played and the strong player's choice: ``played``, ``best``) and the picker.
import { BonusPicture, COLOURS, ColourMark, DieFace, FoxPicture, PenMark, inkOn } from "./icons.js";
import { html } from "./lib.js";
import { lang, num, t, tn } from "./i18n.js";

export const cellKey = (area, cell) => `${area}:${cell ? `r${cell[0]}c${cell[1]}` : "next"}`;

/** A click handler that ignores the second click of a double click: the first one's answer may
 * already have put another control under the pointer (Pass where Roll was), which a stray click
 * would play. A key (detail 0) and a tap (1) act at once. */
export const single = (act) => (event) => { if (event.detail <= 1) act(event); };

/** The arrow keys (and Home, End) among ``items``, in the page's order, wrapping: whether the
 * event moved the focus. */
export function stepFocus(event, items) {
  const list = [...items].filter((item) => !item.disabled);
  const at = list.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (at < 0 || !(step || event.key === "Home" || event.key === "End")) return false;
  event.preventDefault();
  list[step ? (at + step + list.length) % list.length : event.key === "Home" ? 0 : list.length - 1].focus();
  return true;
}

const AXES = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The lit cell an arrow key goes to from ``from``, as the cells lie on the screen: the nearest
 * that way in the same row (or column), else the nearest that way; at the edge, the next (→ ↓)
 * or previous (← ↑) lit cell in the sheet's order. */
export function nearestCell(from, cells, key) {
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height]; };
  const [x, y, w, h] = centre(from);
  const [dx, dy] = AXES[key];
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    if (cell === from) continue;
    const [cx, cy] = centre(cell);
    const along = (cx - x) * dx + (cy - y) * dy;
    const across = Math.abs((cx - x) * dy) + Math.abs((cy - y) * dx);
    if (along < 1) continue;
    const inLine = across < (dx ? h : w); // the two cells overlap across the way they go
    const score = inLine ? along : 1e4 + along + 2 * across;
    if (score < bestScore) [best, bestScore] = [cell, score];
  }
  const at = cells.indexOf(from);
  return best || cells[(at + (dx + dy > 0 ? 1 : -1) + cells.length) % cells.length];
}

/** The arrow keys on a lit cell of the own sheet: on to the nearest lit cell that way. */
function arrowsAmongCells(event) {
  if (!(event.key in AXES) || !event.target.matches("button.target")) return;
  const cells = [...event.currentTarget.querySelectorAll("button.target")];
  const next = nearestCell(event.target, cells, event.key);
  event.preventDefault();
  if (next) next.focus();
}

/** The cells that changed between two states of a sheet (the last move, drawn as such). */
export function changedCells(before, after) {
  const changed = new Set();
  if (!before || !after) return changed;
  for (const [letter, values] of Object.entries(after.areas)) {
    const old = before.areas[letter] || [];
    if (values.length && typeof values[0] === "object") {
      values.forEach((cell, i) => {
        if (old[i] && cell.marks > old[i].marks) changed.add(cellKey(letter, [cell.row, cell.col]));
      });
    } else {
      for (let i = old.length; i < values.length; i += 1) changed.add(`${letter}:box${i}`);
    }
  }
  return changed;
}

/** A review's marks on a cell: the move played there, the strong player's choice. */
function ReviewMarks({ play, keyName }) {
  const played = play && play.played === keyName;
  const best = play && play.best === keyName;
  if (!played && !best) return null;
  return html`<span class="review-badges">${played ? html`<span class="badge-played">${play.playedLabel || t("played")}</span>` : null}${
    best ? html`<span class="badge-best">${t("best")}</span>` : null}</span>`;
}

function Target({ play, keyName, label, cls, children }) {
  const moves = play && play.targets.get(keyName);
  const marks = [
    cls,
    play && play.hint === keyName ? "hint" : "",
    play && play.last.has(keyName) ? "last" : "",
    play && play.picker && play.picker.key === keyName ? "picking" : "",
    play && play.pending && play.pending.key === keyName ? "pending" : "",
    play && play.played === keyName ? "played" : "",
    play && play.best === keyName ? "best" : "",
  ].join(" ");
  if (!moves && play && (play.played === keyName || play.best === keyName)) {
    return html`<div class="target-wrap"><div class=${marks} role="img" aria-label=${label}>${children}</div>
      <${ReviewMarks} play=${play} keyName=${keyName} /></div>`;
  }
  if (!moves) return html`<div class=${marks} role="img" aria-label=${label} data-key=${keyName}>${children}</div>`;
  return html`
    <div class="target-wrap">
      <button type="button" class=${`${marks} target`} data-key=${keyName} data-target=${keyName} aria-label=${label}
        onClick=${single((event) => play.onTarget(keyName, moves, event.currentTarget))}>${children}</button>
      ${play.hint === keyName && play.hintValue !== null
        ? html`<span class="hint-badge">${t("best: {score}", { score: num(play.hintValue) })}</span>` : null}
      ${play.picker && play.picker.key === keyName ? play.renderPicker() : null}
    </div>`;
}

function GridArea({ area, values, play, marksOf }) {
  const byCell = new Map(values.map((c) => [`${c.row},${c.col}`, c]));
  const coloured = area.row_colours.length > 0;
  const columns = `${coloured ? "var(--cell) " : ""}repeat(${area.cols}, var(--cell)) var(--cell)`;
  const items = [];
  area.cells.forEach((row, r) => {
    if (coloured) {
      const colour = area.row_colours[r];
      items.push(html`<div class="row-colour" style=${{ background: COLOURS[colour], color: inkOn(colour) }} aria-hidden="true"><${ColourMark} letter=${colour} /></div>`);
    }
    row.forEach((value, c) => {
      if (value === null) {
        items.push(html`<div class=${`cell blank blank-${area.blank}`} aria-hidden="true">
          ${area.blank === "crossed" ? html`<${PenMark} crossed=${true} />` : null}
          ${area.blank === "sum" ? html`<span class="sum-picture"><${DieFace} letter="b" plain=${true} /><${DieFace} letter="w" plain=${true} /></span>` : null}
        </div>`);
        return;
      }
      const cell = byCell.get(`${r + 1},${c + 1}`);
      const key = cellKey(area.letter, [r + 1, c + 1]);
      // the seat's move on its way: the mark it makes, drawn at once
      const marks = (cell ? cell.marks : 0) + (play && play.pending && play.pending.key === key ? 1 : 0);
      const crossed = marks >= area.marks;
      const circled = area.marks === 2 && marks >= 1;
      const state = crossed ? t("crossed") : circled ? t("circled") : t("free");
      const label = t("{area}, row {row}, column {column}: {value}, {state}",
        { area: area.name, row: r + 1, column: c + 1, value, state });
      items.push(html`<${Target} play=${play} keyName=${key} label=${label} cls=${`cell${marks ? " marked" : ""}`}>
        <span class="printed">${value}</span>${marks ? html`<${PenMark} circled=${circled} crossed=${crossed} />` : null}
      </${Target}>`);
    });
    const bonus = area.row_bonuses[r];
    items.push(html`<div class="row-bonus"><${BonusPicture} bonus=${bonus} used=${bonus && marksOf.rowDone(r)} /></div>`);
  });
  if (area.column_feet.some(Boolean) || area.diagonal) {
    if (coloured) items.push(html`<div></div>`);
    area.column_feet.forEach((foot, c) => {
      if (!foot) items.push(html`<div></div>`);
      else if (foot.points) {
        items.push(html`<div class="foot points-box" title=${foot.name}>${foot.points}</div>`);
      } else {
        items.push(html`<div class="foot"><${BonusPicture} bonus=${foot} used=${marksOf.columnDone(c)} /></div>`);
      }
    });
    items.push(area.diagonal
      ? html`<div class="foot diagonal"><${BonusPicture} bonus=${area.diagonal} used=${marksOf.diagonalDone()} /></div>`
      : html`<div></div>`);
  }
  return html`
    <div class="grid" style=${{ gridTemplateColumns: columns }}>${items}</div>
    ${area.count_points.length ? html`<${Ladder} points=${area.count_points[0]} filled=${marksOf.countFilled()}
      perRow=${area.count_per_row} />` : null}`;
}

/** A points ladder, read out as one message of the catalogue (its language's colon). */
function Ladder({ points, filled, perRow }) {
  const said = points.map((p) => num(p)).join(", ");
  const label = perRow ? t("points per row by crosses: {points}", { points: said }) : t("points by crosses: {points}", { points: said });
  return html`<div class="ladder" role="img" aria-label=${label}>
    ${points.map((p, i) => html`<span class=${i + 1 === filled ? "reached" : ""}><small>${i + 1}</small>${p}</span>`)}
  </div>`;
}

function TrackArea({ area, values, play }) {
  const pairs = area.scoring === "pairs";
  const between = area.order === "increasing_reset_after_6" ? "<" : area.order === "non_increasing" ? "≥" : null;
  const boxes = area.boxes.map((box, i) => {
    const filled = i < values.length;
    const next = i === values.length;
    const key = next ? cellKey(area.letter, null) : `${area.letter}:box${i}`;
    const heads = [box.multiplier !== 1 ? `×${box.multiplier}` : "", box.minimum !== 1 ? `≥${box.minimum}` : ""].filter(Boolean);
    // the seat's move on its way: a cross, or the value the move names, else a pen at work (the server writes the number)
    const ahead = next && play && play.pending && play.pending.key === key ? play.pending : null;
    const content = filled ? (area.crosses ? t("crossed") : num(values[i]))
      : ahead ? (area.crosses ? t("crossed") : ahead.value !== null ? num(ahead.value) : t("being written")) : t("empty");
    const label = t("{area}, box {n}: {content}", { area: area.name, n: i + 1, content })
      + (heads.length ? ` (${heads.join(", ")})` : "");
    const lost = filled && box.bonus_minimum > 1 && values[i] / box.multiplier < box.bonus_minimum;
    return html`
      ${between && i > 0 ? html`<span class="between" aria-hidden="true">${between}</span>` : null}
      ${pairs && i % 2 === 1 ? html`<span class="between" aria-hidden="true">−</span>` : null}
      <div class=${`box-column${pairs && i % 2 === 1 ? " pair-end" : ""}`}>
        <span class="head">${heads.join(" ")}${box.bonus_minimum > 1 ? html`<span class="bonus-minimum" title=${t("the bonus needs at least {n}", { n: box.bonus_minimum })}>≥${box.bonus_minimum}</span>` : null}</span>
        <${Target} play=${play} keyName=${key} label=${label} cls=${`box${filled || ahead ? " marked" : ""}`}>
          ${filled ? (area.crosses ? html`<${PenMark} crossed=${true} />` : html`<span class="written">${num(values[i])}</span>`) : null}
          ${ahead ? (area.crosses ? html`<${PenMark} crossed=${true} />`
            : html`<span class="written">${ahead.value !== null ? num(ahead.value) : "…"}</span>`) : null}
        </${Target}>
        <span class="box-bonus">${box.bonus ? html`<${BonusPicture} bonus=${box.bonus} used=${filled && !lost} />` : null}</span>
        ${area.points.length ? html`<span class=${`box-points${i + 1 === values.length ? " reached" : ""}`}>${area.points[i]}</span>` : null}
      </div>`;
  });
  return html`<div class="track">${boxes}</div>`;
}

/** What a phone fits an area's boxes to its width by (app.css): a grid's columns; a track's
 * boxes and the signs between them. */
function fitting(area) {
  if (area.kind === "grid") return { "--cols": (area.row_colours.length ? 1 : 0) + area.cols + 1 };
  const n = area.boxes.length;
  const ordered = area.order === "increasing_reset_after_6" || area.order === "non_increasing";
  const signs = (ordered ? n - 1 : 0) + (area.scoring === "pairs" ? Math.floor(n / 2) : 0);
  return { "--n": n, "--signs": signs };
}

/** Which lines of a grid are complete (their bonus reached, drawn as used). */
function gridMarks(area, values) {
  const done = new Map(values.map((c) => [`${c.row},${c.col}`, c.marks >= 1]));
  const complete = (cells) => cells.every(([r, c]) => area.cells[r][c] === null || done.get(`${r + 1},${c + 1}`));
  const rows = area.cells.map((row, r) => row.map((_, c) => [r, c]));
  const columns = area.cells[0].map((_, c) => area.cells.map((__, r) => [r, c]));
  return {
    rowDone: (r) => complete(rows[r]),
    columnDone: (c) => complete(columns[c]),
    diagonalDone: () => complete(area.cells.map((_, i) => [i, i])),
    countFilled: () => values.filter((c) => c.marks >= area.marks).length,
  };
}

/** An area of a sheet; ``owner``: the player's name, in the area's accessible name (each sheet
 * has a yellow area: "Anne — yellow" and "Bob — yellow" are two regions, not one name twice). */
function Area({ area, sheet, play, owner = null }) {
  const values = sheet.areas[area.letter];
  const points = sheet.score.areas[area.letter];
  const name = owner === null ? area.name : `${owner} — ${area.name}`; // the same in every language
  return html`
    <section class=${`area area-${area.letter} kind-${area.kind}`} style=${{ "--area": COLOURS[area.letter], "--area-ink": inkOn(area.letter), ...fitting(area) }}
      aria-label=${name}>
      <h3><${ColourMark} letter=${area.letter} /><span class="area-name">${area.name}</span>
        ${points === null || points === undefined ? null : html`<span class="points">${tn("{n} point", "{n} points", points)}</span>`}</h3>
      ${area.kind === "grid"
        ? html`<${GridArea} area=${area} values=${values} play=${play} marksOf=${gridMarks(area, values)} />`
        : html`<${TrackArea} area=${area} values=${values} play=${play} />`}
    </section>`;
}

export function Circles({ track, counts }) {
  const earned = counts ? counts.earned : 0;
  const used = counts ? counts.used : 0;
  const circles = Array.from({ length: track.circles }, (_, i) => {
    const state = i < used ? "used" : i < earned ? "earned" : "open";
    return html`<svg class=${`circle ${state}`} viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="9" fill="#fff" stroke="#333" stroke-width="1.5" />
      ${state !== "open" ? html`<circle cx="12" cy="12" r="6" fill="#1d2f86" />` : null}
      ${state === "used" ? html`<path d="M5 5L19 19M19 5L5 19" stroke="#b3261e" stroke-width="2.4" stroke-linecap="round" />` : null}
    </svg>`;
  });
  const label = t("{action}: {left} left, {used} used", { action: track.name, left: earned - used, used });
  return html`<div class="action-track" role="img" aria-label=${label}>
    <${BonusPicture} bonus=${{ name: track.name, picture: { kind: "action", action: track.action } }} />
    <span class="circles">${circles}</span>
    ${track.end_bonus ? html`<span class="end-bonus"><${BonusPicture} bonus=${track.end_bonus} used=${earned >= track.circles} /></span>` : null}
  </div>`;
}

export function Rounds({ layout, state }) {
  return html`<ol class="rounds" aria-label=${t("Rounds")}>
    ${Array.from({ length: state.rounds }, (_, i) => {
      const gift = layout.round_gifts[i];
      const when = i + 1 < state.round ? "past" : i + 1 === state.round ? "current" : "";
      const label = t("Round {n}", { n: i + 1 }) + (gift ? ` (${gift.name})` : "");
      return html`<li class=${when} aria-label=${label} aria-current=${when === "current" ? "step" : null}>
        <span class="round-number">${i + 1}</span><${BonusPicture} bonus=${gift} />
        ${when === "past" ? html`<${PenMark} crossed=${true} />` : null}</li>`;
    })}
  </ol>`;
}

function Foxes({ score }) {
  const label = t("Foxes: {n} × {value} = {points}",
    { n: score.foxes, value: num(score.fox_value), points: num(score.foxes * score.fox_value) });
  return html`<p class="foxes" role="img" aria-label=${label}><${FoxPicture} label=${null} />
    <span>${num(score.foxes)} × ${num(score.fox_value)} = <b>${num(score.foxes * score.fox_value)}</b></span></p>`;
}

/** An area as printed, with no mark and no score: the rules page's picture of it. */
export function AreaPicture({ area }) {
  const sheet = { areas: { [area.letter]: [] }, score: { areas: {} } };
  return html`<${Area} area=${area} sheet=${sheet} play=${null} />`;
}

/** One player's sheet. ``play``: set on the own sheet while a move can be made on it. */
export function Sheet({ layout, view, player, play = null, small = false }) {
  const sheet = view.state.sheets[player];
  const seat = view.seats[player];
  const grids = layout.areas.filter((a) => a.kind === "grid");
  const tracks = layout.areas.filter((a) => a.kind === "track");
  return html`
    <section class=${`sheet${small ? " small" : ""}${seat.deciding ? " deciding" : ""}`} data-player=${player}
      aria-label=${t("Sheet of {name}", { name: seat.name })} onKeyDown=${play && play.targets.size ? arrowsAmongCells : null}>
      <header class="sheet-head">
        <h2>${player === view.you && !view.others ? t("{name} (you)", { name: seat.name }) : seat.name}${seat.bot_label ? html` <small>(${seat.bot_label})</small>` : null}</h2>
        ${seat.deciding && !view.over ? html`<span class="deciding-tag">${t("deciding")}</span>` : null}
        ${seat.free ? html`<span class="free-tag">${t("free seat: waiting for a player")}</span>` : null}
        <span class="total">${t("Total: {total}", { total: num(sheet.score.total) })}</span>
        ${view.win_chance ? html`<span class="win-chance" title=${t("the chance to finish first, from the sheets and how each player has played so far")}>${
          t("chance to win: {percent}", { percent: new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(view.win_chance[player]) })}</span>` : null}
      </header>
      <div class="sheet-top">
        <${Rounds} layout=${layout} state=${view.state} />
        <div class="actions">${layout.actions.map((track) => html`<${Circles} track=${track} counts=${sheet.actions[track.action]} />`)}</div>
        <${Foxes} score=${sheet.score} />
      </div>
      <div class="sheet-body">
        <div class="grids">${grids.map((area) => html`<${Area} area=${area} sheet=${sheet} play=${play} owner=${seat.name} />`)}</div>
        <div class="tracks">${tracks.map((area) => html`<${Area} area=${area} sheet=${sheet} play=${play} owner=${seat.name} />`)}</div>
      </div>
    </section>`;
}
