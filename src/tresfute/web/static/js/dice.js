// The dice where the rules put them: the roll in hand, the silver platter, the dice chosen on
// their fields. Before the first roll of a turn the dice shown are the last turn's: they are
// drawn faded under that title, never as the current roll.
import { ColourMark, DieFace } from "./icons.js";
import { html } from "./lib.js";
import { t } from "./i18n.js";
import { stepFocus } from "./sheet.js";

/** ``shortcut``: the number key that chooses the die (the dice that may be chosen, counted in the tray's order). */
export function Die({ die, name, playable, selected, onSelect, shortcut = null }) {
  const label = die.value ? `${name} ${die.value}` : t("{die}, not rolled", { die: name });
  if (!playable) {
    return html`<span class="die" data-die=${die.die} title=${name}><${DieFace} letter=${die.die} value=${die.value} label=${label} /><b class="value"><${ColourMark} letter=${die.die} />${die.value || "?"}</b></span>`;
  }
  return html`<button type="button" class=${`die playable${selected ? " selected" : ""}`} data-die=${die.die}
    data-key=${`die-${die.die}`} aria-pressed=${selected ? "true" : "false"} title=${name} aria-keyshortcuts=${shortcut}
    onClick=${() => onSelect(selected ? null : die.die)}><${DieFace} letter=${die.die} value=${die.value} label=${label} /><b class="value"><${ColourMark} letter=${die.die} />${die.value}</b></button>`;
}

/** ``stale``: the dice are the last turn's (a new turn waits for its first roll). Another
 * player's turn names them: their roll, the dice they chose, their platter. A die is drawn
 * anew where it lands (a new roll, a die moved to a field or to the platter), which the style
 * sheet animates. */
export function DiceTray({ layout, view, selected, onSelect, stale }) {
  const state = view.state;
  const theirs = view.seats && view.seats.length > 1 && state.active !== view.you ? view.seats[state.active].name : null;
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  const playable = new Set((view.legal || []).filter((m) => m.die && (m.kind === "pick" || m.kind === "extra")).map((m) => m.die));
  const toRoll = state.phase === "roll" && !view.over; // the dice in hand wait for their roll: no value yet
  let counted = 0; // the number keys 1, 2, … choose the dice that may be chosen, in the order drawn
  const group = (where, title) => {
    let dice = state.dice.filter((d) => d.where === where);
    if (where === "field") dice = dice.sort((a, b) => a.field - b.field);
    if (where === "hand" && toRoll) dice = dice.map((d) => ({ ...d, value: null }));
    return html`<div class=${`dice-group dice-${where}`}>
      <h3>${title}</h3>
      <div class="dice-row">${dice.length
        ? dice.map((d) => html`<${Die} key=${`${d.die}${where === "hand" ? d.value : ""}`} die=${d} name=${names[d.die]} playable=${!stale && playable.has(d.die)}
            selected=${selected === d.die} onSelect=${onSelect} shortcut=${!stale && playable.has(d.die) ? String(++counted) : null} />`)
        : html`<span class="empty">${t("none")}</span>`}</div>
    </div>`;
  };
  const arrows = (event) => { if (event.target.matches(".die.playable")) stepFocus(event, event.currentTarget.querySelectorAll(".die.playable")); };
  return html`<div class=${`dice${stale ? " stale" : ""}`} id="dice" aria-label=${stale ? t("Dice of the last turn") : t("Dice")} onKeyDown=${arrows}>
    ${stale ? html`<p class="stale-note">${t("Dice of the last turn")}</p>` : null}
    ${group("hand", toRoll ? t("To roll") : state.solo_passive_turn ? t("Other dice") : theirs ? t("Roll of {name}", { name: theirs }) : t("The roll"))}
    ${group("field", theirs ? t("Dice chosen by {name}", { name: theirs }) : t("Chosen dice"))}
    ${group("platter", theirs ? t("Silver platter of {name}", { name: theirs }) : t("Silver platter"))}
  </div>`;
}
