// The game page: whose turn it is and what to do (a hint, what each computer player would
// play), the dice, the own sheet where a click plays, the other sheets, and the end. The server sends the legal moves with their words; the page
// offers only those, on the sheet where they land (no rule is worked out here).
import { ApiError, api, seatHeaders } from "./api.js";
import { DiceTray } from "./dice.js";
import { EndOfGame, Fairness } from "./end.js";
import { Guide } from "./guide.js";
import { DieFace } from "./icons.js";
import { html, useCallback, useEffect, useLayoutEffect, useRef, useState } from "./lib.js";
import { date, gameName, lang, num, sentence, t } from "./i18n.js";
import { asPlayer, remember, remembered } from "./memory.js";
import { OthersStrip } from "./others.js";
import { Sheet, cellKey, changedCells, single, stepFocus } from "./sheet.js";

const ON_SHEET = new Set(["pick", "extra", "bonus", "sweep"]);

/** The sheet's cells that take a move now, each with its moves (those of the chosen die). */
export function targetsOf(legal, die) {
  const targets = new Map();
  for (const move of legal) {
    if (!move.area || !ON_SHEET.has(move.kind)) continue;
    if (die && move.die && move.die !== die) continue;
    const key = cellKey(move.area, move.cell);
    if (!targets.has(key)) targets.set(key, []);
    targets.get(key).push(move);
  }
  return targets;
}

/** The moves of a cell that takes several (a die's value, or which die), to choose from. */
export const chooser = (picker, names, onMove, onClose) => html`<${Chooser} picker=${picker} names=${names} onMove=${onMove} onClose=${onClose} />`;

function Chooser({ picker, names, onMove, onClose }) {
  // The first choice takes the focus once the picker is in the page: a ref's callback can run
  // while the picker's own element is not yet attached, where focus() does nothing. The picker
  // hangs under its cell: moved sideways first to lie within the screen's width (a cell at the
  // right of a phone's screen), so that its choices are seen whole.
  const first = useRef(null);
  const box = useRef(null);
  useLayoutEffect(() => {
    const shown = box.current;
    if (shown) {
      shown.style.transform = "";
      const { left, right } = shown.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      const shift = right > width - 4 ? Math.max(width - 4 - right, 4 - left) : left < 4 ? 4 - left : 0;
      if (shift) shown.style.transform = `translateX(${shift}px)`;
    }
    if (first.current) first.current.focus({ preventScroll: true });
    if (shown) shown.scrollIntoView({ block: "nearest", inline: "nearest" }); // the whole picker, its margin (app.css) for the focus ring
  }, [picker]);
  const keys = (event) => { // Escape closes the picker (the focus back on its cell); the arrows go from choice to choice
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    } else stepFocus(event, event.currentTarget.querySelectorAll("button"));
  };
  return html`<div class="chooser" role="dialog" aria-label=${t("Choose")} onKeyDown=${keys} ref=${box}>
  ${picker.moves.map((m, i) => html`<button type="button" data-move=${m.move} ref=${i === 0 ? first : null}
    onClick=${single(() => onMove(m.move))}>${m.value !== null && m.value !== undefined && !m.die ? html`<b>${num(m.value)}</b>` : moveChoice(m, names)}</button>`)}
  <button type="button" class="close" onClick=${onClose} aria-label=${t("Close")}>${t("Close")}</button>
</div>`;
}

/** A new turn waits for its first roll: the dice on the table are the last turn's. */
const staleDice = (view) => view.state.phase === "roll" && view.state.picks === 0 && !view.over
  && view.state.dice.some((d) => d.value);

// A rules option's reminder applies while its action may be used: the option, the action.
const REMINDED_BY = { reprise_with_no_die_left: "reprise" };

/** The rules options' reminders that apply now (``view.rules_text`` follows ``view.rules``' order):
 * an option tied to an action while the seat is offered it, or has one left in its own turn. */
export function remindersNow(view) {
  const me = view.you;
  if (me === null || me === undefined || view.over || !view.rules_text) return [];
  const state = view.state;
  const active = state.active === me && !state.solo_passive_turn;
  const actions = state.sheets[me].actions || {};
  return Object.keys(view.rules || {}).map((name, i) => [REMINDED_BY[name], view.rules_text[i]]).filter(([action, text]) => text
    && (action ? (view.legal || []).some((m) => m.kind === action) || (active && actions[action] && actions[action].available > 0) : active))
    .map(([, text]) => text);
}

function TurnBar({ layout, view, step = null, onSkip = null }) {
  const state = view.state;
  const reminders = step ? [] : remindersNow(view);
  return html`<div class="status" id="status" tabindex="-1">
    <div class="turn-line"><span class="round-tag">${t("Round {n} of {total}", { n: state.round, total: state.rounds })}</span>
      <strong id="status-text">${view.status}</strong>
      ${reminders.length ? html`<details class="rules-info" id="rules-info"><summary title=${t("Rules option")}><span aria-hidden="true">i</span>
        <span class="visually-hidden">${t("Rules option")}</span></summary><p class="rules-tag" id="rules-tag">${reminders.join(" · ")}</p></details>` : null}
      <a class="rules-of-game" href=${`/rules?game=${view.game}`} target="_blank" rel="noopener">${t("Rules")}</a></div>
    ${step ? html`<p id="step-text" class="step-text"><span>${step.text}</span>
      ${onSkip ? html`<button type="button" id="skip" class="skip" onClick=${onSkip}>${t("Skip ahead")}</button>` : null}</p>` : null}
    ${!step && view.prompt ? html`<p id="prompt">${view.prompt.split("\n").map((line, i) => html`${i ? html`<br />` : null}${sentence(line)}`)}</p>` : null}
    ${view.challenge ? html`<p class="challenge-tag">${t("Daily challenge of {day}: no hints, the same dice for everyone.", { day: date(view.challenge) })}</p>` : null}
  </div>`;
}

function Pending({ view }) {
  const mine = view.you !== null && view.you !== undefined ? view.pending[view.you] : [];
  if (!mine || !mine.length) return null;
  return html`<ul class="pending" id="pending">${mine.map((p) => html`<li>${t("Bonus: {bonus} — {source}", p)}</li>`)}</ul>`;
}

export function moveChoice(move, names) {
  if (move.die && move.kind === "reprise") { // the die taken back, short (the prompt says "reprise"; its button's label the whole)
    return html`<${DieFace} letter=${move.die} value=${null} label=${null} plain=${true} /> ${names[move.die]}`;
  }
  if (move.die) {
    return html`<${DieFace} letter=${move.die} value=${null} label=${names[move.die]} /> ${move.label}`;
  }
  return move.label;
}

/** What the greedy and the strong computer players would play here (asked for: it takes a search). */
function Choices({ choices }) {
  if (!choices) return null;
  return html`<div id="choices" class="hint-box choices" role="status">
    <p>${t("What each computer player would play")}</p>
    <ul>${choices.map((c) => html`<li data-bot=${c.bot}><b>${c.bot_label}</b>: ${c.label}${" — "}${
      t("expected final score {value}", { value: num(c.expected, 1) })}</li>`)}</ul>
  </div>`;
}

// A screen with room for the moves in words as well as the sheet (elsewhere they are folded).
const ROOMY = "(min-width: 1000px) and (min-height: 880px)";

function Controls({ view, layout, die, onMove, onUndo, onHint, hint, onChoices, choices, busy }) {
  const legal = view.legal || [];
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  const offSheet = legal.filter((m) => !(m.area && ON_SHEET.has(m.kind)));
  const onSheet = legal.filter((m) => m.area && ON_SHEET.has(m.kind) && !(die && m.die && m.die !== die));
  const hintable = !view.challenge && legal.length > 1 && legal[0].kind !== "roll";
  // each move's button keyed by its move: a button is never reused for another move (the focus on
  // "Roll" would stay on the button that then offers a reroll), it goes and the focus moves on
  return html`<div class="controls">
    <div id="moves" role="group" aria-label=${t("Your legal moves")}>
      <div class="primary">${offSheet.map((m) => html`<button type="button" key=${m.move} class=${`move move-${m.kind}${hint && hint.move === m.move ? " hint" : ""}`}
        aria-label=${m.kind === "reprise" ? m.label : null} title=${m.kind === "reprise" ? m.label : null} data-move=${m.move} data-key=${`move-${m.move}`} disabled=${busy} onClick=${single(() => onMove(m.move))}>${moveChoice(m, names)}</button>`)}</div>
      ${onSheet.length ? html`<details class="move-list" open=${onSheet.length <= 6 && matchMedia(ROOMY).matches}>
        <summary>${die ? t("Where the chosen die can go ({n})", { n: onSheet.length }) : t("Every move on the sheet ({n})", { n: onSheet.length })}</summary>
        <ul>${onSheet.map((m) => html`<li key=${m.move}><button type="button" class=${`move move-${m.kind}${hint && hint.move === m.move ? " hint" : ""}`}
          data-move=${m.move} data-key=${`move-${m.move}`} disabled=${busy} onClick=${single(() => onMove(m.move))}>${m.label}</button></li>`)}</ul>
      </details>` : null}
    </div>
    <div class="tools">
      ${view.can_undo ? html`<button type="button" id="undo" data-key="undo" disabled=${busy} onClick=${single(onUndo)}>${t("Undo")}</button>` : null}
      ${hintable && onHint ? html`<button type="button" id="hint-button" data-key="hint" disabled=${busy} onClick=${onHint}>${t("Hint")}</button>` : null}
      ${hintable && onChoices ? html`<button type="button" id="choices-button" disabled=${busy} onClick=${onChoices}
        title=${t("What each computer player would play")}>${t("Computer players")}</button>` : null}
    </div>
    ${hint ? html`<div id="hint" class="hint-box" role="status">
      <p>${t("Hint: {move} (expected final score {value}).", { move: hint.label, value: num(hint.value, 1) })}</p>
      <ol>${hint.moves.slice(0, 4).map((m) => html`<li>${m.label} — ${num(m.value, 1)}${m.cost ? ` (−${num(m.cost, 1)})` : ""}</li>`)}</ol>
    </div>` : html`<div id="hint"></div>`}
    <${Choices} choices=${choices} />
  </div>`;
}

function DiceForm({ view, layout, onMove }) {
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  const submit = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = [...form.querySelectorAll("input[data-die]")].map((i) => `${i.dataset.die}${i.value}`);
    const platter = [...form.querySelectorAll("input[data-platter]:checked")].map((i) => i.dataset.platter).join("");
    onMove(`dice ${values.join(" ")}${platter ? ` platter=${platter}` : ""}`);
  };
  return html`<form id="dice-form" class="dice-form" onSubmit=${submit}>
    <h3>${t("Dice rolled")}</h3>
    <div class="die-inputs">${view.dice_to_roll.map((d) => html`<label class="die-input">
      <${DieFace} letter=${d} value=${null} label=${null} /> <span>${names[d]}</span>
      <input type="number" min="1" max="6" required data-die=${d} inputmode="numeric" />
      ${view.solo_roll ? html`<span class="check"><input type="checkbox" data-platter=${d} /> ${t("platter")}</span>` : null}
    </label>`)}</div>
    <button type="submit">${t("Enter the dice")}</button>
  </form>`;
}

function Invitations({ view, token }) {
  const entry = remembered().find((g) => g.id === view.id && g.token === token);
  const free = view.seats.filter((s) => s.free);
  if (view.over || (!free.length && !(entry && entry.invitations && entry.invitations.length))) return null;
  const watch = `${location.origin}/g/${view.id}`;
  return html`<section class="panel invitations">
    ${free.length ? html`<h3>${t("Waiting for players")}</h3>
      <p>${t("This table has free seats: anyone who opens this link can take one.")}</p>
      <p><input readonly value=${watch} aria-label=${t("Link to share")} onFocus=${(e) => e.currentTarget.select()} /></p>` : null}
    ${entry && entry.invitations && entry.invitations.length ? html`<h3>${t("Invitation links")}</h3>
      <p>${t("Send each person their own link; anyone with this page's address without #seat can watch.")}</p>
      <ul>${entry.invitations.map((inv) => html`<li><label>${inv.name}
        <input readonly value=${inv.link} onFocus=${(e) => e.currentTarget.select()} /></label></li>`)}</ul>` : null}
  </section>`;
}

function TakeSeat({ view }) {
  const [name, setName] = useState("");
  const [error, setError] = useState("");
  if (view.over || view.you !== null || !view.seats.some((s) => s.free)) return null;
  const join = async (event) => {
    event.preventDefault();
    try {
      // as the player this browser is (one seat a player at a table): made now if it has none yet
      const joined = await asPlayer(name.trim(), (headers) => api(`/api/games/${view.id}/join`,
        { method: "POST", headers, body: { name: name.trim() } }));
      remember({ id: view.id, token: joined.token, name: name.trim(), game: view.game });
      location.assign(joined.link); // a new #seat: main.js loads the page again as that seat
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<form class="panel take-seat" onSubmit=${join}>
    <label>${t("Your name at the table")} <input value=${name} maxlength="40" required onInput=${(e) => setName(e.currentTarget.value)} /></label>
    <button type="submit">${t("Take a seat")}</button>
    <p class="error" role="alert">${error}</p>
  </form>`;
}

function Log({ view }) {
  return html`<details class="log panel"><summary>${t("Last moves")}</summary>
    <ol>${view.log.map((line) => html`<li>${line}</li>`)}</ol></details>`;
}

// How long each move of another player stays on screen before the next (ms), by the setting.
const PACES = { slow: 1600, normal: 800, fast: 300, instant: 0 };
const PACE_KEY = "tresfute.pace";
const CATCH_UP = 40; // a page opening shows at most so many of the last entries (others' since the seat's own)
const savedPace = () => (localStorage.getItem(PACE_KEY) in PACES ? localStorage.getItem(PACE_KEY) : "normal");
const LOG_SHOWN = 12; // a page that plays no seat, or a game over, opens its log on so many entries

/** A step of the record as the log says it: the seat's own said to "you" ("You roll: …"), the
 * others' as the server words them, with their name; the same words live and after a reload. */
export function stepLine(step, you) {
  const own = you !== null && you !== undefined && step.actor === you && typeof step.said === "string";
  if (!own) return { entry: step.entry, text: step.text };
  const text = step.player === null ? t("You roll: {dice}", { dice: step.said }) : t("You: {move}", { move: step.said });
  return { entry: step.entry, text };
}

/** Who acts in a step shown to the others; "during your turn" when it is this seat's turn. */
const stepStatus = (step, you, seats) => (step.active === you && step.actor !== you && seats[step.actor]
  ? t("{name} plays during your turn.", { name: seats[step.actor].name }) : step.status);

/** The game's log: every move in words as it is shown, newest last (a live region), and the
 * pace at which the other players' moves are shown (``others``: not in a game of one's own alone,
 * where every move is the seat's and none is shown at a pace). */
function GameLog({ lines, pace, onPace, others }) {
  const list = useRef(null);
  useLayoutEffect(() => { // the newest line in view before the frame is painted
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [lines]);
  return html`<section class="panel game-log" aria-labelledby="game-log-title">
    <h3 id="game-log-title">${t("Game log")}</h3>
    <div id="game-log" role="log" aria-live="polite" aria-labelledby="game-log-title" ref=${list} tabindex="0"><ol>
      ${lines.map((line) => html`<li key=${line.entry} data-entry=${line.entry}>${line.text}</li>`)}</ol></div>
    ${others ? html`<label class="pace"><span>${t("The other players' moves")}</span>
      <select id="pace" value=${pace} onChange=${(e) => onPace(e.currentTarget.value)}>
        <option value="slow">${t("slow")}</option><option value="normal">${t("normal")}</option>
        <option value="fast">${t("fast")}</option><option value="instant">${t("at once")}</option>
      </select></label>` : null}
  </section>`;
}

/** On a phone or a tablet (the panel fixed at the top), the sheet's area where the chosen die
 * can go is brought just under the panel, unless it is in view already. */
function bringTargetsIntoView() {
  const panel = document.querySelector(".play-panel");
  const target = document.querySelector(".own-sheet button.target");
  if (!panel || !target || getComputedStyle(panel).position !== "sticky") return;
  const area = target.closest(".area") || target;
  const top = panel.getBoundingClientRect().bottom;
  const box = area.getBoundingClientRect();
  const shown = target.getBoundingClientRect();
  if (shown.top >= top && shown.bottom <= innerHeight) return;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
  scrollBy({ top: (box.height <= innerHeight - top ? box.top : shown.top) - top - 6, behavior: reduced ? "auto" : "smooth" });
}

/** The whole screen of a game; ``replayNav``: a finished game shown at one step (no moves). */
export function GameScreen({ layout, view, token, play, replayNav = null, lastChanged, marked = null, guide = null, log = null, step = null, onSkip = null }) {
  const me = view.you;
  const seated = me !== null && me !== undefined;
  const order = seated ? [me, ...view.seats.map((_, i) => i).filter((i) => i !== me)] : view.seats.map((_, i) => i);
  const solo = view.seats.length === 1;
  const chosen = play ? play.die : null;
  useEffect(() => { if (chosen) bringTargetsIntoView(); }, [chosen]);
  // ``marked``: a review's position, { player, played, best } (the cells' keys) drawn on that sheet
  const sheetPlay = (i) => (play && i === me ? { ...play.sheet, last: lastChanged.get(i) || new Set() }
    : { targets: new Map(), hint: null, last: lastChanged.get(i) || new Set(), picker: null,
      ...(marked && marked.player === i ? { played: marked.played, best: marked.best, playedLabel: marked.playedLabel } : {}) });
  return html`<div class=${`game players-${view.seats.length}`} data-revision=${view.revision} data-over=${view.over ? "true" : null}
    aria-busy=${play && play.busy ? "true" : null}>
    <div class="play-panel">
      <h1 class="visually-hidden">${gameName(view.game)}</h1>
      ${replayNav}
      <${TurnBar} layout=${layout} view=${view} step=${step} onSkip=${onSkip} />
      ${guide}
      <p id="message" role="status">${play ? play.message : ""}</p>
      <${DiceTray} layout=${layout} view=${view} selected=${play ? play.die : null} onSelect=${play ? play.onSelect : () => {}}
        stale=${staleDice(view) && !replayNav} />
      ${play && seated && !view.over ? html`<${Pending} view=${view} />` : null}
      ${play && seated && !view.over && ((view.legal || []).length || view.can_undo)
        ? html`<${Controls} view=${view} layout=${layout} die=${play.die} onMove=${play.onMove} onUndo=${play.onUndo}
            onHint=${play.onHint} hint=${play.hint} onChoices=${play.onChoices} choices=${play.choices} busy=${play.busy} />` : null}
      ${play && seated && view.dice_to_roll && view.dice_to_roll.length ? html`<${DiceForm} view=${view} layout=${layout} onMove=${play.onMove} />` : null}
      ${!seated && !replayNav ? html`<p class="spectator">${t("You are watching this game.")}</p>` : null}
      ${solo ? null : html`<${OthersStrip} layout=${layout} view=${view} order=${order.slice(1)} lastChanged=${lastChanged} sheetPlay=${sheetPlay}
        replay=${Boolean(replayNav)} />`}
      ${log}
    </div>
    ${view.over && !replayNav ? html`<${EndOfGame} layout=${layout} view=${view} token=${token} />` : null}
    <div class="own-sheet"><${Sheet} layout=${layout} view=${view} player=${order[0]} play=${sheetPlay(order[0])} /></div>
    ${solo ? null : html`<div class="others">${order.slice(1).map((i) => html`<${Sheet} layout=${layout} view=${view} player=${i}
      play=${sheetPlay(i)} small=${true} />`)}</div>`}
    <div class="after">
      ${!replayNav ? html`<${TakeSeat} view=${view} />` : null}
      ${!replayNav ? html`<${Invitations} view=${view} token=${token} />` : null}
      ${log ? null : html`<${Log} view=${view} />`}
      ${!replayNav ? html`<${Fairness} view=${view} token=${token} />` : null}
    </div>
  </div>`;
}

function lastChanges(before, after) {
  const changes = new Map();
  if (!before || before.revision === after.revision) return changes;
  after.state.sheets.forEach((sheet, i) => changes.set(i, changedCells(before.state.sheets[i], sheet)));
  return changes;
}

// A move asked on the WebSocket and not answered: the socket closed, or no answer came in time.
const LOST = new Error("no answer on the socket");
const ANSWER_WAIT = 15000;

/** The control the keyboard goes on to in the play area (``root``, the game) once the one it was
 * on is gone (a roll, a move): the picker's first choice; a lit cell once a die is chosen; a die
 * to choose; a lit cell; the turn's button (roll, pass, done); a move of the list; Undo. None:
 * nothing to do now (another player's turn). */
export function nextControl(root) {
  const first = (selector) => [...root.querySelectorAll(selector)].find((e) => !e.disabled && e.getClientRects().length) || null;
  return first(".chooser button[data-move]")
    || (root.querySelector("#dice .die.selected") ? first(".own-sheet button.target") : null)
    || first("#dice .die.playable") || first(".own-sheet button.target") || first("#moves .primary button")
    || first("#moves .move-list[open] button") || first("#undo");
}

/** The sheet as it will be once ``move`` (a legal move of the view, on the sheet) is played: its
 * cell (or a track's next box) marked at once, before the server answers (``pending`` in the
 * sheet's play; the server's answer replaces it, a refusal takes it back). */
export const pendingMark = (move) => (move && move.area && ON_SHEET.has(move.kind)
  ? { key: cellKey(move.area, move.cell), value: move.value ?? null } : null);

const NUMBER_KEY = /^[1-9]$/;

/** A live game: the state from the server, kept up to date by its WebSocket, which also
 * carries the seat's moves while it is open. */
export function GamePage({ id, token, layoutFor }) {
  const [view, setView] = useState(null);
  const [layout, setLayout] = useState(null);
  const [error, setError] = useState("");
  const [die, setDie] = useState(null);
  const [picker, setPicker] = useState(null);
  const [hint, setHint] = useState(null);
  const [choices, setChoices] = useState(null);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState(new Map());
  const current = useRef(null);
  const sending = useRef(false);
  const live = useRef(null); // the WebSocket once it listens: a seat's moves go on it ({ ask })
  // the seat's move on its way, drawn on the sheet at once: { mark, revision } (the view it was chosen on)
  const [pending, setPending] = useState(null);
  // the keyboard: whether it was used last, whether the focus was in the play area, what to focus after the next render
  const input = useRef({ keys: false, inPlay: false, want: null });

  const show = useCallback((next) => {
    const before = current.current;
    if (before && next.revision < before.revision) return; // an update older than the one shown
    current.current = next;
    if (!before || before.revision !== next.revision) {
      setChanged(lastChanges(before, next));
      setDie(null);
      setPicker(null);
      setHint(null);
      setChoices(null);
      setPending(null); // the move drawn ahead is in the view now (or another one came first)
    }
    setView(next);
  }, []);

  // The other players' moves, shown one at a time: the server plays a computer player's turn at
  // once, so the page asks for the entries it has not logged (each in words, with the state
  // after it) and shows those of others at the chosen pace; the seat's own are only logged.
  const [lines, setLines] = useState([]);
  const [step, setStep] = useState(null); // { text, view }: another player's move on screen
  const [pace, setPace] = useState(savedPace);
  const paceNow = useRef(pace);
  const latest = useRef(null); // the newest view the server sent
  const logged = useRef(0); // the record's entries the log has
  const queue = useRef([]);
  const timer = useRef(null);
  const fetching = useRef(false);
  const stepState = useRef(null);
  const opening = useRef(false); // the first view waits for its steps

  const showStep = (next) => {
    const base = latest.current;
    const seats = base.seats.map((seat, i) => ({ ...seat, deciding: next.deciding[i] }));
    const view = { ...base, state: next.state, seats, status: stepStatus(next, base.you, base.seats), legal: [], prompt: "", can_undo: false,
      pending: base.pending.map(() => []), dice_to_roll: [], over: false, result: null };
    const before = stepState.current || (current.current && current.current.state);
    setChanged(new Map(next.state.sheets.map((sheet, i) => [i, before ? changedCells(before.sheets[i], sheet) : new Set()])));
    stepState.current = next.state;
    setDie(null);
    setPicker(null);
    setStep({ text: stepLine(next, base.you).text, view });
  };

  const finish = () => {
    stepState.current = null;
    setStep(null);
    if (latest.current) show(latest.current);
  };

  const advance = () => {
    while (!timer.current) {
      const next = queue.current.shift();
      if (!next) return finish();
      setLines((old) => [...old, stepLine(next, latest.current.you)].slice(-200));
      const wait = next.actor !== latest.current.you ? PACES[paceNow.current] : 0;
      if (wait) {
        showStep(next);
        timer.current = setTimeout(() => { timer.current = null; advance(); }, wait);
      }
    }
  };

  const skip = () => {
    clearTimeout(timer.current);
    timer.current = null;
    const rest = queue.current.splice(0);
    setLines((old) => [...old, ...rest.map((r) => stepLine(r, latest.current.you))].slice(-200));
    finish();
  };

  const catchUp = async () => {
    if (fetching.current) return;
    fetching.current = true;
    try {
      while (latest.current.entries > logged.current) {
        const since = logged.current;
        const answer = await api(`/api/games/${id}/steps?since=${since}`, { headers: seatHeaders(token), retry: true });
        if (logged.current !== since) continue; // an undo meanwhile
        const fresh = answer.steps.filter((s) => s.entry >= since);
        if (!fresh.length) break;
        logged.current = fresh[fresh.length - 1].entry + 1;
        if (opening.current) { // the page opens: the moves up to the seat's last are only logged (all of them if it plays none)
          const you = latest.current.you;
          const seated = you !== null && you !== undefined && !latest.current.over;
          const mine = seated ? fresh.map((step) => step.player).lastIndexOf(you) : fresh.length - 1;
          setLines(fresh.slice(0, mine + 1).map((step) => stepLine(step, you)));
          queue.current.push(...fresh.slice(mine + 1));
          opening.current = false;
          current.current = latest.current;
          setView(latest.current);
        } else queue.current.push(...fresh);
        advance();
      }
    } catch (e) { // the steps cannot be read: the game as it stands
      logged.current = latest.current.entries;
      opening.current = false;
      skip();
    } finally {
      fetching.current = false;
      if (opening.current) { // nothing came: the game as it stands
        opening.current = false;
        finish();
      }
    }
  };

  /** A view from the server: ``own``, the answer to the seat's request (its one move is shown at once). */
  const receive = useCallback((next, own = false) => {
    const newest = latest.current;
    if (newest && next.revision < newest.revision) return;
    latest.current = next;
    if (!newest) {
      if (!next.entries) { // nothing played yet: an empty log
        logged.current = 0;
        show(next);
      } else { // a seat: what the others did since its last move is shown (a computer that starts, a page reopened);
        // a page that plays no seat, or a game over: its last moves start the log, in the steps' words
        const seated = next.you !== null && next.you !== undefined && !next.over;
        logged.current = Math.max(0, next.entries - (seated ? CATCH_UP : LOG_SHOWN));
        opening.current = true;
        catchUp();
      }
      return;
    }
    if (next.entries < logged.current) { // an undo: the moves undone leave the log
      logged.current = next.entries;
      setLines((old) => old.filter((line) => line.entry < next.entries));
      queue.current = [];
      clearTimeout(timer.current);
      timer.current = null;
      finish();
      return;
    }
    if (next.entries > logged.current) {
      if (own && next.entries === logged.current + 1 && !queue.current.length && !timer.current && !fetching.current) {
        show(next); // the seat's one move: shown at once, logged when its words come (the steps' words, as after a reload)
      }
      catchUp();
      return;
    }
    if (!queue.current.length && !timer.current && !fetching.current) show(next);
  }, [show]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const load = useCallback(() => api(`/api/games/${id}`, { headers: seatHeaders(token), retry: true }).then((next) => receive(next)), [id, token, receive]);

  useEffect(() => {
    let socket = null;
    let closed = false;
    let delay = 500;
    api(`/api/games/${id}`, { headers: seatHeaders(token) }).then(async (first) => {
      if (token && first.you !== null) remember({ id, token, name: first.seats[first.you].name, game: first.game });
      setLayout(await layoutFor(first.game));
      receive(first);
      connect();
    }, (e) => setError(e.message));
    function connect() {
      if (closed) return;
      const opened = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${id}/ws`);
      socket = opened;
      // the moves asked on this socket and not answered yet, by their number
      const pending = new Map();
      let asked = 0;
      const ask = (message) => new Promise((resolve, reject) => {
        if (opened.readyState !== WebSocket.OPEN) return reject(LOST); // closing: its close event is coming
        const number = asked++;
        pending.set(number, { resolve, reject });
        opened.send(JSON.stringify({ ...message, id: number }));
        setTimeout(() => answer(number, (p) => p.reject(LOST)), ANSWER_WAIT);
      });
      const answer = (number, settle) => {
        const waiting = pending.get(number);
        if (!waiting) return false;
        pending.delete(number);
        settle(waiting);
        return true;
      };
      opened.addEventListener("open", () => {
        delay = 500;
        opened.send(JSON.stringify({ type: "hello", token: token || null, lang }));
      });
      opened.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "state") {
          if (token) live.current = { ask }; // listening: the seat's moves may go on it
          receive(message.state);
        } else if (message.type === "answer") answer(message.id, (p) => p.resolve(message.state));
        else if (message.type === "error" && !answer(message.id, (p) => p.reject(new ApiError(message.error, message.status)))) {
          setMessage(message.error);
        }
      });
      opened.addEventListener("close", (event) => {
        if (live.current && live.current.ask === ask) live.current = null;
        for (const number of [...pending.keys()]) answer(number, (p) => p.reject(LOST));
        if (closed || event.code === 1008) return; // refused (a bad link, too many pages): its message is shown, no retry
        setTimeout(() => { load().catch(() => {}); connect(); }, delay); // catch up on what was missed, then listen again
        delay = Math.min(8000, delay * 2);
      });
    }
    return () => {
      closed = true;
      if (socket) socket.close();
    };
  }, [id, token]);

  /** One request at a time: a second click would carry the same seq and be refused as stale.
   * On the game's WebSocket while it listens (the server answers there); over HTTP otherwise, or
   * when the socket closed before the answer, or the database is away (HTTP shows the banner and
   * tries again), with the same seq: a move sent twice is played once. */
  const request = async (path, body) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      let state = null;
      let again = false;
      if (live.current) {
        try {
          state = await live.current.ask({ type: path, ...body });
        } catch (e) {
          if (e !== LOST && e.status !== 503) throw e;
          again = e === LOST; // it may have been played before the socket closed
        }
      }
      if (state === null) {
        const sent = { method: "POST", headers: seatHeaders(token), body, retry: true };
        state = await api(`/api/games/${id}/${path}`, sent).catch((e) => {
          throw Object.assign(e, { retried: e.retried || again });
        });
      }
      receive(state, true);
      setMessage(path === "undo" ? t("Undone.") : "");
    } catch (e) {
      setPending(null); // refused: the mark drawn ahead is taken back, the message says why (at once)
      if (!(e.status === 409 && e.retried)) setMessage(e.message); // a move sent again after a lost answer was played once
      if (e.status === 409) await load().catch(() => {}); // the game moved on: show it as it is now
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  const onMove = (move) => {
    const now = current.current;
    const mark = pendingMark((now.legal || []).find((m) => m.move === move));
    if (mark && !sending.current) {
      setPending({ mark, revision: now.revision });
      setPicker(null);
    }
    return request("act", { move, seq: now.seq });
  };

  // The keyboard: a number key chooses that die of those that may be chosen (in the tray's order),
  // the focus then on its first lit cell; whether the keyboard or a pointer was used last, and
  // whether in the play area (the panel, the own sheet), for the focus kept there below.
  useEffect(() => {
    const inPlay = (target) => Boolean(target && target.closest && target.closest(".play-panel, .own-sheet"));
    const onKey = (event) => {
      input.current.keys = true;
      if (!NUMBER_KEY.test(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
      const die = document.querySelectorAll("#dice .die.playable")[Number(event.key) - 1];
      if (!die) return;
      event.preventDefault();
      input.current.inPlay = true;
      input.current.want = ".own-sheet button.target";
      setDie(die.dataset.die);
      setPicker(null);
    };
    const onPointer = (event) => { input.current.keys = false; input.current.inPlay = inPlay(event.target); };
    const onFocus = (event) => { input.current.inPlay = inPlay(event.target); };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer, true);
    document.addEventListener("focusin", onFocus);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer, true);
      document.removeEventListener("focusin", onFocus);
    };
  }, []);

  // The focus stays in the play area: when a roll or a move takes away the control it was on, it
  // goes on to the next sensible one (nextControl); with nothing to do (the move on its way,
  // another player's turn) it waits on the turn's line, and goes on from there when there is.
  useLayoutEffect(() => {
    const root = document.querySelector(".game");
    if (!root || !input.current.inPlay) return;
    const scroll = { preventScroll: !input.current.keys }; // a pointer's user sees where they are
    const wanted = input.current.want && root.querySelector(input.current.want);
    input.current.want = null;
    if (wanted) return wanted.focus(scroll);
    const active = document.activeElement;
    const status = root.querySelector("#status");
    if (active && active !== document.body && active !== status) return;
    const next = busy || pending || step ? null : nextControl(root);
    if (next) next.focus(scroll);
    else if (status && active !== status) status.focus({ preventScroll: true });
  });
  const onUndo = () => request("undo", { seq: current.current.seq });
  const onHint = async () => {
    setMessage(t("Thinking…"));
    try {
      const { moves } = await api(`/api/games/${id}/hint`, { method: "POST", headers: seatHeaders(token) });
      const best = moves[0];
      const move = (current.current.legal || []).find((m) => m.move === best.move);
      setHint({ ...best, moves, key: move && move.area && ON_SHEET.has(move.kind) ? cellKey(move.area, move.cell) : null });
      setMessage("");
    } catch (e) {
      setMessage(e.message);
    }
  };

  const onChoices = async () => {
    setMessage(t("Thinking…"));
    try {
      const answer = await api(`/api/games/${id}/choices`, { method: "POST", headers: seatHeaders(token) });
      setChoices(answer.choices);
      setMessage("");
    } catch (e) {
      setMessage(e.message);
    }
  };

  if (error) return html`<p class="error panel" role="alert">${error}</p>`;
  if (!view || !layout) return html`<p class="loading">${t("Loading…")}</p>`;
  document.title = `${gameName(view.game)} — tresfute`;
  const shown = step ? step.view : view; // another player's move on screen: nothing to play meanwhile
  const legal = shown.legal || [];
  const ahead = pending && !step && shown.revision === pending.revision ? pending.mark : null; // the move on its way
  const targets = ahead ? new Map() : targetsOf(legal, die);
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  const onTarget = (key, moves) => {
    if (moves.length === 1) onMove(moves[0].move);
    else setPicker(picker && picker.key === key ? null : { key, moves });
  };
  const closePicker = () => {
    if (picker) input.current.want = `.own-sheet [data-target="${picker.key}"]`; // back on its cell
    setPicker(null);
  };
  const renderPicker = () => chooser(picker, names, onMove, closePicker);
  const play = {
    die, busy, message, hint, choices,
    onSelect: (letter) => {
      if (letter && input.current.keys) input.current.want = ".own-sheet button.target"; // chosen with the keyboard: on to its cells
      setDie(letter);
      setPicker(null);
    },
    onMove, onUndo, onHint, onChoices,
    sheet: { targets, hint: hint ? hint.key : null, hintValue: hint ? hint.value : null, picker, onTarget, renderPicker, pending: ahead },
  };
  const guide = view.you !== null && view.you !== undefined ? html`<${Guide} view=${shown} key=${view.id} />` : null;
  const choosePace = (value) => {
    localStorage.setItem(PACE_KEY, value);
    paceNow.current = value;
    setPace(value);
  };
  const alone = view.you !== null && view.you !== undefined && view.seats.length === 1; // a solo game: no one else moves
  const log = html`<${GameLog} lines=${lines} pace=${pace} onPace=${choosePace} others=${!alone} />`;
  return html`<${GameScreen} layout=${layout} view=${shown} token=${token} play=${play} lastChanged=${changed} guide=${guide}
    log=${log} step=${step} onSkip=${step ? skip : null} />`;
}
