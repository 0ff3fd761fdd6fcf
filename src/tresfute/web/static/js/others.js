// The other players at a glance: one line each in the play panel (name, total, each area's
// points, the area of their last mark ringed), so that their scores stay in view on every screen
// while the own sheet scrolls; a tap or click opens that player's full sheet in a dialog.
import { ColourMark } from "./icons.js";
import { html, useEffect, useRef, useState } from "./lib.js";
import { num, t } from "./i18n.js";
import { Sheet } from "./sheet.js";

/** The areas of a player's last marks (the letters of the changed cells' keys, "y:r1c2", "b:box3"). */
const lastAreas = (changed) => new Set([...(changed || [])].map((key) => key.split(":")[0]));

function OtherLine({ layout, view, player, last, onOpen }) {
  const seat = view.seats[player];
  const score = view.state.sheets[player].score;
  const deciding = seat.deciding && !view.over;
  const areas = layout.areas.map((area) => ({ area, points: score.areas[area.letter] || 0, last: last.has(area.letter) }));
  const lastNames = areas.filter((a) => a.last).map((a) => a.area.name);
  const label = [
    t("Sheet of {name}", { name: seat.name }),
    t("Total: {total}", { total: num(score.total) }),
    ...areas.map((a) => `${a.area.name} ${num(a.points)}`),
    ...(lastNames.length ? [t("last mark: {area}", { area: lastNames.join(", ") })] : []),
  ].join(", ");
  return html`<li><button type="button" class=${`other${deciding ? " deciding" : ""}`} data-player=${player}
    aria-haspopup="dialog" aria-label=${label} onClick=${() => onOpen(player)}>
    <span class="other-name">${seat.name}</span>
    <span class="other-total">${num(score.total)}</span>
    <span class="other-areas" aria-hidden="true">${areas.map((a) => html`<span class=${`other-area${a.last ? " last" : ""}`}
      data-area=${a.area.letter}><span class="swatch" data-area=${a.area.letter}><${ColourMark} letter=${a.area.letter} /></span>${num(a.points)}</span>`)}</span>
  </button></li>`;
}

/** A player's full sheet in a modal dialog (Escape, the close button or a click beside it close it). */
function SheetDialog({ layout, view, player, play, onClose }) {
  const dialog = useRef(null);
  useEffect(() => {
    const shown = dialog.current;
    if (shown && !shown.open) shown.showModal();
    return () => { if (shown && shown.open) shown.close(); };
  }, []);
  return html`<dialog class="sheet-dialog" id="other-sheet" ref=${dialog} aria-label=${t("Sheet of {name}", { name: view.seats[player].name })}
    onClose=${onClose} onClick=${(event) => { if (event.target === dialog.current) onClose(); }}>
    <button type="button" class="close" id="other-sheet-close" onClick=${onClose}>${t("Close")}</button>
    <${Sheet} layout=${layout} view=${view} player=${player} play=${play} />
  </dialog>`;
}

/** The others' strip: ``order``, the other players' seats in the order shown; ``sheetPlay(i)``,
 * what their sheet marks. Each player's last marks stay ringed until their next ones (the page's
 * ``lastChanged`` holds the last update's only; ``replay``: a step of a finished game, its own only). */
export function OthersStrip({ layout, view, order, lastChanged, sheetPlay, replay = false }) {
  const [open, setOpen] = useState(null);
  const marks = useRef(new Map()); // player -> the cells of their last marks
  const game = useRef(view.id);
  if (game.current !== view.id || replay) { // a replay's step shows its own marks only
    game.current = view.id;
    marks.current = new Map();
  }
  for (const i of order) {
    const changed = lastChanged.get(i);
    if (changed && changed.size) marks.current.set(i, changed);
  }
  const lastOf = (i) => marks.current.get(i) || new Set();
  if (!order.length) return null;
  return html`<section class="others-strip" aria-label=${t("The other players")}>
    <ul>${order.map((i) => html`<${OtherLine} key=${i} layout=${layout} view=${view} player=${i}
      last=${lastAreas(lastOf(i))} onOpen=${setOpen} />`)}</ul>
    ${open !== null ? html`<${SheetDialog} layout=${layout} view=${view} player=${open} play=${{ ...sheetPlay(open), last: lastOf(open) }}
      onClose=${() => setOpen(null)} />` : null}
  </section>`;
}
