// A finished game move by move: the server replays its record up to the step asked for; the
// step's move is marked on the sheets (the cells it changed).
import { api } from "./api.js";
import { GameScreen } from "./game.js";
import { Arrow } from "./icons.js";
import { html, useEffect, useState } from "./lib.js";
import { t } from "./i18n.js";
import { playerHeaders } from "./memory.js";
import { changedCells } from "./sheet.js";

export function ReplayPage({ id, layoutFor }) {
  const [shown, setShown] = useState(null);
  const [error, setError] = useState("");
  const get = (step) => api(`/api/games/${id}?at=${step}`, { headers: playerHeaders() });
  const go = async (step) => {
    try {
      const view = await get(step);
      const before = step > 0 ? await get(step - 1) : null;
      const changes = new Map(view.state.sheets.map((sheet, i) => [i, changedCells(before && before.state.sheets[i], sheet)]));
      setShown({ view, changes, layout: await layoutFor(view.game) });
    } catch (e) {
      setError(e.message);
    }
  };
  useEffect(() => { go(0); }, [id]);
  if (error) return html`<p class="error panel" role="alert">${error}</p>`;
  if (!shown) return html`<p class="loading">${t("Loading…")}</p>`;
  const { view, layout, changes } = shown;
  const button = (key, label, to) => html`<button type="button" id=${`replay-${key}`} aria-label=${label} title=${label}
    disabled=${to === view.step} onClick=${() => go(to)}><${Arrow} to=${key} /></button>`;
  const nav = html`<nav class="replay" id="replay" aria-label=${t("Replay")}>
    ${button("first", t("First move"), 0)}${button("previous", t("Previous move"), Math.max(0, view.step - 1))}
    <span id="replay-step">${t("Move {n} of {total}", { n: view.step, total: view.steps })}</span>
    ${button("next", t("Next move"), Math.min(view.steps, view.step + 1))}${button("last", t("Last move"), view.steps)}
  </nav>`;
  return html`<${GameScreen} layout=${layout} view=${view} token=${null} play=${null} replayNav=${nav} lastChanged=${changes} />`;
}
