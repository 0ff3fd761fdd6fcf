// A finished game's review (/g/<id>?review): the server computes it once, in the background
// (the page shows how far it has gone), then the accuracy, the labels, the expected final score
// through the game as a chart, the costliest decisions first and every decision. A decision's
// "Show" opens its position on the sheet, with the move played and the strong choice marked.
import { api, seatHeaders } from "./api.js";
import { LineChart } from "./chart.js";
import { GameScreen } from "./game.js";
import { html, useEffect, useState } from "./lib.js";
import { gameName, lang, num, t } from "./i18n.js";
import { playerHeaders } from "./memory.js";
import { cellKey } from "./sheet.js";

const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const POLL_MS = 500;

const percent = (value) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
const keyOf = (move) => (move && move.area ? cellKey(move.area, move.cell) : null);

function Progress({ progress }) {
  return html`<section class="panel review-progress" id="review-progress" role="status">
    <p>${progress.total
      ? t("Reviewing the game: {done} of {total} decisions…", { done: num(progress.done), total: num(progress.total) })
      : t("Reviewing the game…")}</p>
    <progress max=${progress.total || 1} value=${progress.done}></progress>
  </section>`;
}

function Decision({ d, onShow }) {
  return html`<li class=${`decision label-${d.label}`} data-move-number=${d.move_number}>
    <p class="decision-head"><b>${t("Move {n}, round {round}", { n: d.move_number, round: d.round })}</b>
      <span class=${`label-tag label-${d.label}`}>${d.label_text}</span>
      ${d.cost > 0 ? html`<span class="cost">${t("{cost} points lost", { cost: num(d.cost, 1) })}</span>` : null}</p>
    <p>${t("Played: {move}", { move: d.played_text })} <small>(${t("expected final score {value}", { value: num(d.played_expected, 1) })})</small></p>
    ${d.played === d.best ? null
      : html`<p>${t("Strong player: {move}", { move: d.best_text })} <small>(${t("expected final score {value}", { value: num(d.best_expected, 1) })})</small></p>`}
    <button type="button" class="show-position" onClick=${() => onShow(d)}>${t("Show the position")}</button>
  </li>`;
}

function Summary({ review, onShow }) {
  const byMove = new Map(review.decisions.map((d) => [d.move_number, d]));
  const costliest = review.costliest.map((n) => byMove.get(n));
  const points = review.chart.map((value, i) => {
    const d = review.decisions[Math.max(0, i - 1)];
    return { value, group: d ? d.round : 1, label: i === 0 ? t("start") : t("after move {n}", { n: d.move_number }) };
  });
  const marked = costliest.map((d) => review.decisions.indexOf(d) + 1);
  return html`<section class="panel review" id="review" aria-labelledby="review-title">
    <h2 id="review-title">${t("Review of {name}'s game", { name: review.name })}</h2>
    <p>${gameName(review.game)} — ${t("final score {score}", { score: num(review.final_score) })}</p>
    <p class="accuracy" id="accuracy">${t("Accuracy: {accuracy}", { accuracy: percent(review.accuracy) })}</p>
    <p>${t("{total} expected points lost, {mean} per decision", { total: num(review.total_cost, 1), mean: num(review.mean_cost, 1) })}</p>
    <ul class="label-counts" id="label-counts">${LABELS.map((name) => html`<li class=${`label-${name}`}>
      <span class=${`label-tag label-${name}`}>${review.label_words[name]}</span> <b>${num(review.labels[name])}</b></li>`)}</ul>
    <h3>${t("Expected final score through the game")}</h3>
    <${LineChart} id="review-chart" points=${points} marked=${marked} title=${t("Expected final score through the game")}
      valueName=${t("Expected final score")} groupName=${t("Round")} />
    <h3>${t("The costliest decisions")}</h3>
    ${costliest.length ? html`<ol class="decisions costliest" id="costliest">${costliest.map((d) => html`<${Decision} d=${d} onShow=${onShow} />`)}</ol>`
      : html`<p>${t("No decision cost anything: every one was the strong player's.")}</p>`}
    <details class="all-decisions" id="all-decisions"><summary>${t("Every decision ({n})", { n: review.decisions.length })}</summary>
      <ol class="decisions">${review.decisions.map((d) => html`<${Decision} d=${d} onShow=${onShow} />`)}</ol>
    </details>
  </section>`;
}

function Position({ shown, onBack }) {
  const { view, layout, decision, seat } = shown;
  const nav = html`<nav class="replay review-position" id="review-position" aria-label=${t("Position of the decision")}>
    <button type="button" id="back-to-review" onClick=${onBack}>${t("Back to the review")}</button>
    <span>${t("Move {n}, round {round}", { n: decision.move_number, round: decision.round })} — ${decision.label_text}</span>
    <span class="legend"><span class="badge-played">${t("played")}</span> ${decision.played_text}</span>
    ${decision.played === decision.best ? null : html`<span class="legend"><span class="badge-best">${t("best")}</span> ${decision.best_text}</span>`}
  </nav>`;
  const marked = { player: seat, played: keyOf(decision.played_move), best: keyOf(decision.best_move) };
  return html`<${GameScreen} layout=${layout} view=${{ ...view, you: seat }} token=${null} play=${null} replayNav=${nav}
    lastChanged=${new Map()} marked=${marked} />`;
}

export function ReviewPage({ id, token, player, layoutFor }) {
  const [review, setReview] = useState(null);
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [error, setError] = useState("");
  const [shown, setShown] = useState(null);
  const [scroll, setScroll] = useState(0);
  const headers = { ...playerHeaders(), ...seatHeaders(token) };
  const path = `/api/games/${id}/review${player ? `?player=${player}` : ""}`;

  useEffect(() => {
    let stopped = false;
    const take = (answer) => {
      if (stopped) return;
      if (answer.status === "done") {
        setReview(answer);
        document.title = t("Review of {name}'s game", { name: answer.name });
      } else {
        if (answer.status === "running") setProgress(answer);
        // "none": this server process does not know of it (another one computes it): ask again
        const method = answer.status === "none" ? "POST" : "GET";
        setTimeout(() => api(path, { method, headers }).then(take, (e) => setError(e.message)), POLL_MS);
      }
    };
    document.title = t("Game review");
    api(path, { method: "POST", headers }).then(take, (e) => setError(e.message));
    return () => { stopped = true; };
  }, [id, token, player]);

  const show = async (decision) => {
    try {
      const view = await api(`/api/games/${id}?at=${decision.move_number - 1}`, { headers: playerHeaders() });
      setScroll(window.scrollY);
      setShown({ view, layout: await layoutFor(view.game), decision, seat: review.player - 1 });
      window.scrollTo(0, 0);
    } catch (e) {
      setError(e.message);
    }
  };
  const back = () => {
    setShown(null);
    setTimeout(() => window.scrollTo(0, scroll), 0);
  };

  if (error) return html`<p class="error panel" role="alert">${error}</p>`;
  if (shown) return html`<${Position} shown=${shown} onBack=${back} />`;
  if (!review) return html`<${Progress} progress=${progress} />`;
  return html`<${Summary} review=${review} onShow=${show} />
    <p class="panel"><a href=${`/g/${id}?replay`}>${t("Replay the game move by move")}</a></p>`;
}
