// The guided first game: a short explanation the first time each step happens (the roll,
// choosing a die, the platter, a bonus, the passive pick, a reroll or +1 offered, the fox).
// "What happens now" is read from the view the server sends (its phase, legal moves, dice,
// pending bonuses, sheets): no rule is worked out here. Each tip is shown once per game; the
// guide's progress and "Leave the guide" are kept per game in the browser (memory.js).
// The same steps, in the same words, are in the terminal game's help (tresfute/learn.py).
import { html, useEffect, useState } from "./lib.js";
import { N_, t } from "./i18n.js";
import { guideOf, setGuide } from "./memory.js";

/** Each step: its key, title and explanation (the order is the order shown when several come at once). */
export const STEPS = [
  ["roll", N_("The roll"), N_("You are the active player: roll the dice. Your turn has up to three rolls; each time you roll every die that is neither on one of your die fields nor on the silver platter.")],
  ["choose", N_("Choosing a die"), N_("Choose one die of the roll and enter it in the area of its colour: only the places it may go are offered. The white die is a joker for any colour. The chosen die goes on a die field.")],
  ["platter", N_("The silver platter"), N_("Every die of the roll lower than the one you chose went to the silver platter: it is out of your turn, but the passive players pick from it. The others stay for your next roll, if you have one left.")],
  ["bonus", N_("A bonus"), N_("You have a bonus to place: enter it now. If that entry reaches another bonus, that one follows: a chain, until every bonus is placed. Rerolls and +1 are circled on their track and kept for later.")],
  ["reroll", N_("Reroll"), N_("You have a reroll: instead of choosing a die, you may roll again all the dice you just rolled. It uses up one circle of its track.")],
  ["extra", N_("Extra die (+1)"), N_("Your turn is over and you have a +1: you may enter one more die, any of the six as it lies, even one already used (each die once per turn), or keep it for later.")],
  ["reprise", N_("Taking a die back (reprise)"), N_("Before this roll you may take one die back from the silver platter, to roll it with the others.")],
  ["sweep", N_("Silver sweep"), N_("Your silver choice sent dice to the platter: you may also cross each of them in the silver area, a coloured die in its own row, white or silver in any row.")],
  ["passive", N_("The passive pick"), N_("The active player's turn is over: take one die from the silver platter and enter it on your sheet. Each passive player picks on their own.")],
  ["solo", N_("The passive pick (solo)"), N_("Your passive turn: the six dice are rolled and the three lowest go to the silver platter. Take one of them and enter it; then your next active turn begins.")],
  ["fox", N_("The fox"), N_("A fox: at the end of the game each fox is worth as many points as your lowest area, so keep every area growing.")],
];

/** The steps happening in this view, for the seat that sees it. */
export function stepsNow(view) {
  const me = view.you;
  if (me === null || me === undefined) return new Set();
  const state = view.state;
  const legal = view.legal || [];
  const offered = (kind) => legal.some((m) => m.kind === kind);
  const solo = state.solo_passive_turn;
  const active = state.active === me && !solo;
  const now = new Set();
  if (view.over) return now; // the game is over: no tip is news any more, the fox's neither
  if (active && state.phase === "roll" && offered("roll")) now.add("roll");
  if (active && state.phase === "choose" && offered("pick")) now.add("choose");
  if (active && state.phase !== "turn start" && state.picks > 0
    && state.dice.some((d) => d.where === "platter")) now.add("platter"); // after a pick, or the turn's end
  if ((view.pending[me] || []).length) now.add("bonus");
  for (const kind of ["reroll", "extra", "reprise", "sweep"]) if (offered(kind)) now.add(kind);
  if (solo && (offered("pick") || offered("roll"))) now.add("solo");
  if (!solo && state.active !== me && state.phase === "passive" && offered("pick")) now.add("passive");
  if (state.sheets[me].score.foxes > 0) now.add("fox");
  return now;
}

/** The guide's panel, in the play panel: the new tips of this view, one at a time ("Got it" shows
the next), until dismissed, replaced by the tips of a later step or their step is over. */
export function Guide({ view }) {
  const [guide, setGuideState] = useState(() => guideOf(view.id));
  const [queue, setQueue] = useState([]);
  useEffect(() => {
    if (!guide || !guide.on) return;
    const now = stepsNow(view);
    const fresh = STEPS.filter(([key]) => now.has(key) && !guide.seen.includes(key)).map(([key]) => key);
    if (!fresh.length) return;
    const next = { on: true, seen: [...guide.seen, ...fresh] };
    setGuide(view.id, next);
    setGuideState(next);
    setQueue(fresh);
  }, [view.revision, guide && guide.on]);
  if (!guide || !guide.on) return null;
  const leave = () => {
    const next = { ...guide, on: false };
    setGuide(view.id, next);
    setGuideState(next);
  };
  const now = stepsNow(view);
  const shown = queue.filter((key) => now.has(key)); // a tip whose step is over goes (the platter's, once it is empty)
  const tip = STEPS.find(([key]) => key === shown[0]);
  return html`<section class=${`guide${tip ? "" : " idle"}`} id="guide" role="status" aria-label=${t("Guide for a first game")}>
    ${tip ? html`<p class="guide-tip" data-step=${tip[0]}><b>${t(tip[1])}</b> ${t(tip[2])}</p>`
      : html`<p class="guide-idle">${t("Guided game: each step is explained when it first happens.")}</p>`}
    <p class="guide-buttons">
      ${tip ? html`<button type="button" id="guide-ok" onClick=${() => setQueue(shown.slice(1))}>
        ${shown.length > 1 ? t("Next tip") : t("Got it")}</button>` : null}
      <button type="button" id="guide-leave" onClick=${leave}>${t("Leave the guide")}</button>
    </p>
  </section>`;
}
