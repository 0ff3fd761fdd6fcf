// The rules page (/rules, /rules?game=vraiment-tres-fute): the goal, the turn, each area, the
// bonuses, the rounds and the end, in short words of our own. Each area is drawn from the
// game's layout by the sheet's own components (read-only: no target, no mark), the dice by the
// dice tray, the bonuses and tracks by the same pictures as in play.
import { DiceTray, Die } from "./dice.js";
import { BonusPicture } from "./icons.js";
import { html, useEffect, useState } from "./lib.js";
import { N_, gameName, t } from "./i18n.js";
import { AreaPicture, Circles, Rounds } from "./sheet.js";

const GAMES = ["tres-fute", "vraiment-tres-fute"];

/** How each area is filled and how it scores, by game and area letter. */
const AREAS = {
  "tres-fute": {
    y: [N_("Cross a free cell showing the value of the yellow die, anywhere in the grid. The four printed crosses count as filled."),
      N_("Each completed column scores the points printed under it. A completed row, or the diagonal, gives its bonus.")],
    b: [N_("The blue and the white dice always count together: cross the box of their sum, anywhere, whichever of the two you chose."),
      N_("Points by the number of crosses, on the ladder under the area. A completed row or column gives its bonus.")],
    g: [N_("Cross the next box, from left to right, with a die at least equal to the number printed above it."),
      N_("The number under the last box crossed.")],
    o: [N_("Write the value of the die in the next box, whatever it is; a box marked ×2 or ×3 doubles or triples it."),
      N_("The sum of the numbers written.")],
    p: [N_("Write the value of the die in the next box: each number must be higher than the one before, except after a 6, when any number may follow."),
      N_("The sum of the numbers written.")],
  },
  "vraiment-tres-fute": {
    s: [N_("Cross the value of the silver die in the row of your choice. When you choose a die for silver as the active player, each die this choice sends to the platter may be crossed too: a coloured die in its own row, white or silver in any row."),
      N_("Each row scores by its number of crosses, on the ladder. A completed column gives its bonus.")],
    y: [N_("With the yellow die, circle a free number of its value, or cross a number of its value already circled."),
      N_("Only crosses score, on the ladder. A row or column all circled gives its bonus.")],
    b: [N_("Write the sum of the blue and the white dice in the next box; each number must be at most the one before."),
      N_("The number under the last box filled.")],
    g: [N_("Write the value of the die times the box's multiplier in the next box. The boxes go in pairs."),
      N_("Each completed pair scores its first number minus its second: it can be negative.")],
    k: [N_("Write the value of the die in the next box, whatever it is. A box's bonus is earned only if the value reaches the minimum printed above it."),
      N_("The sum of the numbers written.")],
  },
};

/** An example of a roll after the choice, per game: the die chosen, the lower ones on the platter. */
const EXAMPLE = {
  "tres-fute": {
    dice: [["w", 1, "platter"], ["y", 2, "platter"], ["b", 5, "hand"], ["g", 4, "field"], ["o", 6, "hand"], ["p", 4, "hand"]],
    caption: N_("Example: the green 4 is chosen. The white 1 and the yellow 2, lower, go to the silver platter; the blue 5, the orange 6 and the purple 4 are rolled again."),
  },
  "vraiment-tres-fute": {
    dice: [["w", 1, "platter"], ["s", 2, "platter"], ["y", 5, "hand"], ["b", 6, "hand"], ["g", 4, "field"], ["k", 4, "hand"]],
    caption: N_("Example: the green 4 is chosen. The white 1 and the silver 2, lower, go to the silver platter; the yellow 5, the blue 6 and the pink 4 are rolled again."),
  },
};

function exampleView(game) {
  const dice = EXAMPLE[game].dice.map(([die, value, where]) => ({ die, value, where, field: where === "field" ? 1 : null }));
  return { state: { phase: "choose", dice, solo_passive_turn: false }, legal: [], over: false };
}

const bonusOf = (layout, wanted) => {
  for (const area of layout.areas) {
    const found = [...area.row_bonuses || [], ...area.column_feet || [], ...(area.boxes || []).map((b) => b.bonus)]
      .find((b) => b && b.picture && wanted(b.picture));
    if (found) return found;
  }
  return null;
};

function Bonuses({ layout, game }) {
  const vtf = game === "vraiment-tres-fute";
  const entry = bonusOf(layout, (p) => p.kind === "entry" && p.mark !== "?" && (p.value === null || p.value === undefined));
  const number = bonusOf(layout, (p) => p.kind === "entry" && p.value);
  const question = bonusOf(layout, (p) => p.kind === "entry" && p.mark === "?");
  const fox = bonusOf(layout, (p) => p.kind === "fox");
  const action = (name) => ({ name: layout.actions.find((a) => a.action === name).name, picture: { kind: "action", action: name } });
  const items = [
    [vtf ? question : entry, vtf ? t("A “?” in a colour: one entry of your choice in that area, at once.")
      : t("A cross in a colour: cross a box of your choice in that area, at once (in green, the next box, whatever its minimum).")],
    vtf ? null : [number, t("A number in a colour: write that number in that area's next box, at once.")],
    [action("reroll"), t("Reroll: circled on its track and kept. As the active player, instead of choosing a die, roll again all the dice you just rolled.")],
    [action("plus_one"), t("Extra die (+1): circled on its track and kept. At the end of a turn of yours, active or passive, enter one more die: any of the six as it lies, even one already used, each die once per turn.")],
    vtf ? [action("reprise"), t("Reprise: circled on its track and kept. Before a roll, but not the first of the turn, take one die back from the platter to roll it with the others.")] : null,
    [fox, t("Fox: at the end, each fox is worth as many points as your lowest area (nothing if an area scores 0).")],
  ].filter(Boolean);
  return html`<section class="panel rules-section" id="rules-bonuses">
    <h2>${t("Bonuses")}</h2>
    <p>${t("A bonus takes effect as soon as its box is filled or its line completed. An entry from a bonus is made at once; if it fills another bonus box, that bonus follows: a chain. When several wait, you choose the order.")}</p>
    <ul class="rules-bonuses">${items.map(([bonus, text]) => html`<li><span class="rules-picture"><${BonusPicture} bonus=${bonus} /></span><span>${text}</span></li>`)}</ul>
    <p>${vtf ? t("The action tracks: each action earned circles a circle, each one used is crossed out. The sixth circle of a track gives the bonus at its end.")
      : t("The action tracks: each action earned circles a circle, each one used is crossed out.")}</p>
    <div class="actions rules-actions">${layout.actions.map((track) => html`<${Circles} track=${track} counts=${null} />`)}</div>
  </section>`;
}

export function RulesPage({ layoutFor }) {
  const asked = new URLSearchParams(location.search).get("game");
  const game = GAMES.includes(asked) ? asked : "tres-fute";
  const vtf = game === "vraiment-tres-fute";
  const [layout, setLayout] = useState(null);
  useEffect(() => {
    document.title = `${t("Rules")} — ${gameName(game)} — tresfute`;
    layoutFor(game).then(setLayout);
  }, [game]);
  if (!layout) return html`<p class="loading">${t("Loading…")}</p>`;
  const names = Object.fromEntries(layout.dice.map((d) => [d.letter, d.name]));
  return html`<article class="rules" data-game=${game}>
    <nav class="rules-games" aria-label=${t("Rules")}>${GAMES.map((g) => html`<a href=${`/rules?game=${g}`}
      aria-current=${g === game ? "page" : null}>${gameName(g)}</a>`)}</nav>
    <h1>${t("Rules of {game}", { game: gameName(game) })}</h1>
    <section class="panel rules-section" id="rules-goal">
      <h2>${t("The goal")}</h2>
      <p>${t("Score as many points as you can in the five colour areas of your sheet. The foxes you earn are worth as many points as your lowest area: a good sheet grows everywhere.")}</p>
      <p>${t("The game has six dice: one per area's colour, and the white die, a joker that stands for any colour.")}
        <span class="rules-dice">${layout.dice.map((d, i) => html`<${Die} die=${{ die: d.letter, value: i + 1 }} name=${names[d.letter]} playable=${false} />`)}</span></p>
      <p><a href="/" class="primary-link">${t("Play a guided game: each step explained when it first happens")}</a></p>
    </section>
    <section class="panel rules-section" id="rules-turn">
      <h2>${t("A turn")}</h2>
      <p>${t("In each round every player is the active player once, in turn; the others are passive players.")}</p>
      <h3>${t("The active player")}</h3>
      <ol>
        <li>${t("Roll the dice: all those that are neither on one of your three die fields nor on the silver platter.")}</li>
        <li>${t("Choose one die and enter it in the area of its colour (the white die in any colour). It goes on a die field.")}</li>
        <li>${t("Every die of the roll lower than the chosen one goes to the silver platter. Roll the others again: three rolls at most.")}</li>
      </ol>
      <figure class="rules-example"><${DiceTray} layout=${layout} view=${exampleView(game)} selected=${null} onSelect=${() => {}} stale=${false} />
        <figcaption>${t(EXAMPLE[game].caption)}</figcaption></figure>
      <p>${vtf ? t("A roll you cannot use, or choose not to use, is lost, but still counts as one of the three.")
        : t("If no die of a roll can be entered, the roll is lost, but still counts as one of the three.")}</p>
      <h3>${t("The passive players")}</h3>
      <p>${t("Once the active player is done, the dice left go to the platter too, and each passive player takes one die of the platter for their own sheet (several players may take the same).")}
        ${" "}${vtf ? t("You may refuse the platter; only a player who can use no platter die may take one of the active player's dice instead.")
          : t("A player who can use no platter die may take one of the active player's dice instead.")}</p>
      <h3>${t("Solo")}</h3>
      <p>${t("Six rounds; in each, an active turn, then a passive one: the six dice are rolled, the three lowest go to the platter, and you take one of them. Your total gives your rating in stars.")}</p>
    </section>
    <h2 class="rules-areas-title">${t("The areas")}</h2>
    <div class="rules-areas">${layout.areas.map((area) => html`<section class="panel rules-area" data-area=${area.letter}>
      <${AreaPicture} area=${area} />
      <p><b>${t("How to fill it:")}</b> ${t(AREAS[game][area.letter][0])}</p>
      <p><b>${t("Score:")}</b> ${t(AREAS[game][area.letter][1])}</p>
    </section>`)}</div>
    <${Bonuses} layout=${layout} game=${game} />
    <section class="panel rules-section" id="rules-end">
      <h2>${t("Rounds and the end")}</h2>
      <${Rounds} layout=${layout} state=${{ round: 0, rounds: 6 }} />
      <p>${t("Six rounds with one or two players, five with three, four with four. At the start of each round everyone takes the gift shown on the round track.")}
        ${" "}${vtf ? t("Round 4 gives a black “?”: one entry of your choice in the area of your choice.")
          : t("Round 4 gives a black cross (in yellow, blue or green) or a black 6 (in orange or purple), as you choose.")}</p>
      <p>${t("After the last turn, everyone may still use their +1 actions. Then add up the five areas, plus each fox times the lowest area. The highest total wins; in a tie, the best single area decides.")}</p>
    </section>
  </article>`;
}
