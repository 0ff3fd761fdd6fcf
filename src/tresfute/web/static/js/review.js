// A finished game's review (/g/<id>?review): the server computes it once, in the background
// (the page shows how far it has gone), then the accuracy, the error rate and its level, the
// labels, the expected final score through the game as a chart, the costliest decisions first and
// every decision, each move in words with its cost, its uncertainty and, when it cost 2 points or
// more, why. A decision's "Show" opens its position on the sheet, with the move played and the
// strong choice marked; "Try again" (and "Practise your mistakes and blunders", costliest first,
// the inaccuracies too when asked) shows a costly decision's position to play again, as in a
// game: the server judges the move tried, and the position is asked again until a move within
// the margin is found (or the solution is shown). "Verify" has the costliest decisions valued
// again by strong rollouts to the end (slow: in the background), each shown beside its cost.
import { api, seatHeaders } from "./api.js";
import { LineChart } from "./chart.js";
import { GameScreen, chooser, targetsOf } from "./game.js";
import { html, useEffect, useState } from "./lib.js";
import { gameName, lang, num, sentence, t, tn } from "./i18n.js";
import { playerHeaders } from "./memory.js";
import { cellKey } from "./sheet.js";

const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
const POLL_MS = 500;
const PRACTISED_FROM = 2; // a decision that cost this many points or more is practised (web/reviews.py)
// the labels practised by default, and with the inaccuracies (review_text.PRACTISED_LABELS)
const MISTAKES = ["mistake", "blunder"];
const WITH_INACCURACIES = ["inaccuracy", ...MISTAKES];
const practised = (decisions, labels) => decisions.filter((d) => labels.includes(d.label))
  .sort((a, b) => b.cost - a.cost || a.move_number - b.move_number);
/** The ± shown beside a cost: the futures' standard error and the valuation's own error. */
const errorOf = (d) => (d.cost_error ?? d.cost_se);
/** A cost with its standard error: "5,2 ± 0,5"; as points lost, "−5,2 ± 0,5". */
const spread = (cost, se) => `${num(cost, 1)}\u00a0±\u00a0${num(se, 1)}`;
const lost = (cost, se) => `−${spread(cost, se)}`;
/** A number of points with its sign: "+12,3", "−4,1" (review_text.signed). */
const signed = (value) => (Math.abs(value) < 0.05 ? num(0, 1) : `${value < 0 ? "−" : "+"}${num(Math.abs(value), 1)}`);

const percent = (value) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
const keyOf = (move) => (move && move.area ? cellKey(move.area, move.cell) : null);

function Progress({ progress }) {
  return html`<section class="panel review-progress" id="review-progress" role="status">
    <h1 class="visually-hidden">${t("Game review")}</h1>
    <p>${progress.total
      ? t("Reviewing the game: {done} of {total} decisions…", { done: num(progress.done), total: num(progress.total) })
      : t("Reviewing the game…")}</p>
    <progress max=${progress.total || 1} value=${progress.done}></progress>
  </section>`;
}

function Decision({ d, onShow, onPractise }) {
  return html`<li class=${`decision label-${d.label}`} data-move-number=${d.move_number}>
    <p class="decision-head"><b>${t("Move {n}, round {round}", { n: d.move_number, round: d.round })}</b>
      <span class=${`label-tag label-${d.label}`}>${d.label_text}</span>
      ${d.cost > 0 ? html`<span class="cost" title=${t("expected points lost, ± their standard error")}>${lost(d.cost, errorOf(d))}</span>` : null}</p>
    <p>${t("Played: {move}", { move: d.played_text })} <small>(${t("expected final score {value}", { value: num(d.played_expected, 1) })})</small></p>
    ${d.played === d.best ? null
      : html`<p>${t("Strong player: {move}", { move: d.best_text })} <small>(${t("expected final score {value}", { value: num(d.best_expected, 1) })})</small></p>`}
    ${d.why ? html`<p class="why">${sentence(d.why)}.</p>` : null}
    ${d.verified ? html`<p class="verified">${t("By strong rollouts to the end: {lost} ({verdict})", {
      lost: lost(d.verified.cost, d.verified.se),
      verdict: d.verified.agrees ? t("agrees with the review") : t("does not agree with the review") })}</p>` : null}
    <p class="decision-buttons"><button type="button" class="show-position" onClick=${() => onShow(d)}>${t("Show the position")}</button>
      ${d.cost >= PRACTISED_FROM ? html` <button type="button" class="try-again" onClick=${() => onPractise([d])}>${t("Try again")}</button>` : null}</p>
  </li>`;
}

/** The costly decisions grouped by theme (review.themes, costliest first): each with its count
 * and cost, a tip, and its positions to practise. */
function Themes({ review, onPractise }) {
  if (!review.themes || !review.themes.length) return null;
  const byMove = new Map(review.decisions.map((d) => [d.move_number, d]));
  const positions = (theme) => theme.moves.map((n) => byMove.get(n)).filter(Boolean)
    .sort((a, b) => b.cost - a.cost || a.move_number - b.move_number);
  return html`<h3>${t("Mistakes by theme")}</h3>
    <ul class="themes" id="themes">${review.themes.map((theme) => html`<li class="theme" data-theme=${theme.theme}>
      <p><b>${theme.title}</b> — ${tn("{n} decision, {cost} points", "{n} decisions, {cost} points", theme.count, { n: num(theme.count), cost: num(theme.cost, 1) })}</p>
      <p class="tip">${sentence(theme.tip)}.</p>
      <button type="button" class="practise-theme" onClick=${() => onPractise(positions(theme))}>${t("Practise these positions")}</button></li>`)}</ul>`;
}

/** The review's title: one's own game (no seat asked for: the seat's or the player's own) said to "you". */
const reviewTitle = (review, own) => (own ? t("Review of your game") : t("Review of {name}'s game", { name: review.name }));

/** "Verify": the costliest decisions valued again by rollouts, with the progress while it runs. */
function Verify({ review, onVerify }) {
  const checked = review.decisions.filter((d) => d.verified).length;
  if (checked) return html`<p id="verified-count">${t("{n} of the costliest decisions checked by strong rollouts to the end.", { n: num(checked) })}</p>`;
  if (!review.costliest.length) return null;
  const running = review.verifying;
  return html`<p><button type="button" id="verify" disabled=${running ? true : null} onClick=${onVerify}>
      ${t("Verify the costliest decisions by rollouts ({n})", { n: num(review.costliest.length) })}</button>
    ${running ? html` <span role="status" id="verify-progress">${t("Verifying: {done} of {total}…", { done: num(running.done), total: num(running.total || review.costliest.length) })}</span>` : null}
    ${review.verify_error ? html` <span role="alert" class="error">${review.verify_error}</span>` : null}</p>`;
}

function Summary({ review, own, onShow, onPractise, onVerify }) {
  const byMove = new Map(review.decisions.map((d) => [d.move_number, d]));
  const costliest = review.costliest.map((n) => byMove.get(n));
  const points = review.chart.map((value, i) => {
    const d = review.decisions[Math.max(0, i - 1)];
    const label = i === 0 ? t("start") : i === review.chart.length - 1 ? t("end of the game") : t("after move {n}", { n: d.move_number });
    return { value, group: d ? d.round : 1, label };
  });
  const marked = costliest.map((d) => review.decisions.indexOf(d) + 1);
  const mistakes = practised(review.decisions, MISTAKES);
  const withInaccuracies = practised(review.decisions, WITH_INACCURACIES);
  return html`<section class="panel review" id="review" aria-labelledby="review-title">
    <h1 id="review-title">${reviewTitle(review, own)}</h1>
    <p>${gameName(review.game)} — ${t("final score {score}", { score: num(review.final_score) })}</p>
    <p class="accuracy" id="accuracy">${t("Accuracy: {accuracy}", { accuracy: percent(review.accuracy) })}${" — "}<span
      id="error-rate">${t("error rate: {rate} points per decision that mattered", { rate: num(review.error_rate, 2) })}</span>${" — "}<span
      id="level">${t("level: {level}", { level: review.level_text })}</span></p>
    <p>${t("{total} expected points lost, {mean} per decision", { total: num(review.total_cost, 1), mean: num(review.mean_cost, 1) })}</p>
    <p id="luck">${t("Where the points went: {start} expected at the first decision, {luck} from the dice (luck), {cost} from the decisions, {error} the valuation's own error: final score {final}",
      { start: num(review.start_expected, 1), luck: signed(review.luck), cost: signed(-review.total_cost), error: signed(review.valuation_error), final: num(review.final_score) })}</p>
    ${mistakes.length || withInaccuracies.length ? html`<p class="form-line">${mistakes.length
      ? html`<button type="button" class="primary-button" id="practise-mistakes" onClick=${() => onPractise(mistakes)}>
        ${t("Practise your mistakes and blunders ({n})", { n: num(mistakes.length) })}</button> ` : null}
      ${withInaccuracies.length > mistakes.length ? html`<button type="button" id="practise-inaccuracies" onClick=${() => onPractise(withInaccuracies)}>
        ${t("Practise them with the inaccuracies ({n})", { n: num(withInaccuracies.length) })}</button>` : null}</p>` : null}
    <${Verify} review=${review} onVerify=${onVerify} />
    <ul class="label-counts" id="label-counts">${LABELS.map((name) => html`<li class=${`label-${name}`}>
      <span class=${`label-tag label-${name}`}>${review.label_words[name]}</span> <b>${num(review.labels[name])}</b></li>`)}</ul>
    <h3>${t("Expected final score through the game")}</h3>
    <${LineChart} id="review-chart" points=${points} marked=${marked} title=${t("Expected final score through the game")}
      valueName=${t("Expected final score")} groupName=${t("Round")}
      second=${review.win_chart ? { values: review.win_chart, name: t("Chance to win (dashed)") } : null} />
    <h3>${t("The costliest decisions")}</h3>
    ${costliest.length ? html`<ol class="decisions costliest" id="costliest">${costliest.map((d) => html`<${Decision} d=${d} onShow=${onShow} onPractise=${onPractise} />`)}</ol>`
      : html`<p>${t("No decision cost anything: every one was the strong player's.")}</p>`}
    <${Themes} review=${review} onPractise=${onPractise} />
    <details class="all-decisions" id="all-decisions"><summary>${t("Every decision ({n})", { n: review.decisions.length })}</summary>
      <ol class="decisions">${review.decisions.map((d) => html`<${Decision} d=${d} onShow=${onShow} onPractise=${onPractise} />`)}</ol>
    </details>
  </section>`;
}

function Position({ shown, own, onBack, onPractise }) {
  const { view, layout, decision, seat } = shown;
  const nav = html`<nav class="replay review-position" id="review-position" aria-label=${t("Position of the decision")}>
    <button type="button" id="back-to-review" onClick=${onBack}>${t("Back to the review")}</button>
    <span>${t("Move {n}, round {round}", { n: decision.move_number, round: decision.round })} — ${decision.label_text}</span>
    <span class="legend"><span class="badge-played">${t("played")}</span> ${decision.played_text}</span>
    ${decision.played === decision.best ? null : html`<span class="legend"><span class="badge-best">${t("best")}</span> ${decision.best_text}</span>`}
    ${decision.cost >= PRACTISED_FROM ? html`<button type="button" class="try-again" onClick=${() => onPractise([decision])}>${t("Try again")}</button>` : null}
  </nav>`;
  const marked = { player: seat, played: keyOf(decision.played_move), best: keyOf(decision.best_move) };
  // the reviewed player's sheet first; said to "you" only in one's own review
  return html`<${GameScreen} layout=${layout} view=${{ ...view, you: seat, others: !own }} token=${null} play=${null} replayNav=${nav}
    lastChanged=${new Map()} marked=${marked} />`;
}

/** A costly decision played again: its position as it stood (the sheet, the dice), what was
 * played there and what it cost, the moves offered as in a game (a die, then a cell; or the
 * list of moves in words); the move tried is judged by the server: within half a point of the
 * best, it is found (with the best move and why); else the position is asked again, until a move
 * is found or "Show the solution" marks the best move (which may then be played). */
function Practice({ id, query, headers, layoutFor, queue, seat, onBack }) {
  const [index, setIndex] = useState(0);
  const [shown, setShown] = useState(null);
  const [answer, setAnswer] = useState(null);
  const [solution, setSolution] = useState(false);
  const [tries, setTries] = useState(0);
  const [die, setDie] = useState(null);
  const [picker, setPicker] = useState(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");
  const decision = queue[index];

  useEffect(() => {
    let stopped = false;
    setShown(null);
    setAnswer(null);
    setSolution(false);
    setTries(0);
    api(`/api/games/${id}/practice?move_number=${decision.move_number}${query}`, { headers }).then(async (view) => {
      const layout = await layoutFor(view.game);
      if (!stopped) setShown({ view, layout });
      window.scrollTo(0, 0);
    }, (e) => setMessage(e.message));
    return () => { stopped = true; };
  }, [index]);

  const again = () => { setAnswer(null); setSolution(false); setTries(0); setDie(null); setPicker(null); setMessage(""); };
  const onMove = async (move) => {
    if (busy) return;
    setBusy(true);
    setPicker(null);
    setMessage(t("Thinking…"));
    try {
      const body = { move_number: decision.move_number, move };
      setAnswer(await api(`/api/games/${id}/practice${query ? `?${query.slice(1)}` : ""}`, { method: "POST", headers, body }));
      setTries((n) => n + 1);
      setDie(null);
      setMessage("");
    } catch (e) {
      setMessage(e.message);
    } finally {
      setBusy(false);
    }
  };

  const back = html`<button type="button" id="back-to-review" onClick=${onBack}>${t("Back to the review")}</button>`;
  if (!shown) return html`<div class="panel">${back} <p role="status">${message || t("Loading…")}</p></div>`;
  const { view, layout } = shown;
  const what = view.practice;
  const head = html`<p><b>${t("Move {n}, round {round}", { n: what.move_number, round: what.round })}</b>
    ${queue.length > 1 ? html` — ${t("position {k} of {n}", { k: num(index + 1), n: num(queue.length) })}` : null}</p>`;
  const found = answer && answer.right;
  const next = index + 1 < queue.length ? html`<button type="button" class=${found || solution ? "primary-button" : null} id="practice-next"
    onClick=${() => { again(); setIndex(index + 1); }}>${found || solution ? t("Next position") : t("Skip to the next position")}</button>` : null;
  const nav = html`<section class="replay review-position practice" id="practice" aria-label=${t("Practice")}>
    <p>${back}</p>
    ${head}
    <p id="practice-ask">${t("You played {move} here: {lost} points below the strong player's choice ({label}).",
      { move: what.played_text, lost: spread(what.cost, what.cost_error ?? what.cost_se), label: what.label_text || "" })}
      ${found ? null : ` ${t("Find a better move: choose it on your sheet or in the list of moves.")}`}</p>
    ${answer ? html`<div id="practice-answer" class=${found ? "right" : "wrong"} role="status">
        <p class="verdict"><b>${found
          ? t("Right: your move is within {margin} point of the best.", { margin: num(answer.margin, 1) })
          : t("Not quite: {move} is {lost} points below the best. Try another move.", { move: answer.move.label, lost: spread(answer.cost, answer.cost_error ?? answer.cost_se) })}</b>
          ${tries > 1 ? html` <small id="practice-tries">${t("(try {n})", { n: num(tries) })}</small>` : null}</p>
        ${found ? html`<p><span class="badge-played">${t("your move")}</span> ${answer.move.label}</p>` : null}
        ${found && answer.move.move !== answer.best.move ? html`<p><span class="badge-best">${t("best")}</span> ${answer.best.label}</p>` : null}
        ${found && answer.why ? html`<p class="why">${sentence(answer.why)}.</p>` : null}
      </div>` : null}
    ${solution && !found && answer ? html`<div id="practice-solution" role="status">
        <p><span class="badge-best">${t("best")}</span> ${answer.best.label}</p>
        ${answer.why ? html`<p class="why">${sentence(answer.why)}.</p>` : null}</div>` : null}
    <p class="form-line">${found ? html`<button type="button" id="practice-again" onClick=${again}>${t("Play it again")}</button>`
      : answer && !solution ? html`<button type="button" id="practice-show" onClick=${() => setSolution(true)}>${t("Show the solution")}</button>` : null}
      ${next}</p>
  </section>`;
  if (found) {
    const marked = { player: seat, played: keyOf(answer.move), best: keyOf(answer.best), playedLabel: t("your move") };
    return html`<${GameScreen} layout=${layout} view=${view} token=${null} play=${null} replayNav=${nav} lastChanged=${new Map()} marked=${marked} />`;
  }
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  const play = {
    die, busy, message, hint: null, choices: null,
    onSelect: (letter) => { setDie(letter); setPicker(null); },
    onMove, onUndo: null, onHint: null, onChoices: null,
    sheet: {
      targets: targetsOf(view.legal, die), hint: solution && answer ? keyOf(answer.best) : null, hintValue: null, picker,
      onTarget: (key, moves) => (moves.length === 1 ? onMove(moves[0].move) : setPicker(picker && picker.key === key ? null : { key, moves })),
      renderPicker: () => chooser(picker, names, onMove, () => setPicker(null)),
    },
  };
  return html`<${GameScreen} layout=${layout} view=${view} token=${null} play=${play} replayNav=${nav} lastChanged=${new Map()} />`;
}

export function ReviewPage({ id, token, player, layoutFor }) {
  const [review, setReview] = useState(null);
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [error, setError] = useState("");
  const [shown, setShown] = useState(null);
  const [scroll, setScroll] = useState(0);
  const [practice, setPractice] = useState(null);
  const headers = { ...playerHeaders(), ...seatHeaders(token) };
  const path = `/api/games/${id}/review${player ? `?player=${player}` : ""}`;

  useEffect(() => {
    let stopped = false;
    const take = (answer) => {
      if (stopped) return;
      if (answer.status === "done") {
        setReview(answer);
        document.title = reviewTitle(answer, !player);
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
    setPractice(null);
    setTimeout(() => window.scrollTo(0, scroll), 0);
  };
  const practise = (queue) => {
    setScroll(window.scrollY);
    setPractice(queue);
  };
  const verify = () => {
    const asked = `/api/games/${id}/review/verify${player ? `?player=${player}` : ""}`;
    const take = (answer) => {
      setReview(answer);
      if (answer.verifying) setTimeout(() => api(path, { headers }).then(take, (e) => setError(e.message)), POLL_MS);
    };
    api(asked, { method: "POST", headers }).then(take, (e) => setError(e.message));
  };

  if (error) return html`<p class="error panel" role="alert">${error}</p>`;
  if (shown) return html`<${Position} shown=${shown} own=${!player} onBack=${back} onPractise=${(queue) => { setShown(null); setPractice(queue); }} />`;
  if (practice) {
    return html`<${Practice} id=${id} query=${player ? `&player=${player}` : ""} headers=${headers} layoutFor=${layoutFor}
      queue=${practice} seat=${review.player - 1} onBack=${back} />`;
  }
  if (!review) return html`<${Progress} progress=${progress} />`;
  return html`<${Summary} review=${review} own=${!player} onShow=${show} onPractise=${practise} onVerify=${verify} />
    <p class="panel"><a href=${`/g/${id}?replay`}>${t("Replay the game move by move")}</a></p>`;
}
