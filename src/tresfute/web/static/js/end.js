// The end of a game: the breakdown by area, the ranking (a solo game has a rating, not a
// winner), the record to download, the review, and the fairness panel where anyone checks the dice.
import { api, seatHeaders } from "./api.js";
import { ColourMark, FoxPicture, Star } from "./icons.js";
import { html, useState } from "./lib.js";
import { num, t, tn } from "./i18n.js";
import { asPlayer, playerHeaders, remember } from "./memory.js";

function Stars({ stars }) {
  return html`<span class="stars" role="img" aria-label=${tn("{n} star out of 5", "{n} stars out of 5", stars)}>
    ${[0, 1, 2, 3, 4].map((i) => html`<${Star} filled=${i < stars} />`)}</span>`;
}

function Rating({ rating }) {
  if (!rating) return null;
  const label = rating[document.documentElement.lang] || rating.fr;
  return html`<p class="rating">${rating.stars === null || rating.stars === undefined ? null : html`<${Stars} stars=${rating.stars} />`}
    <span>${label}</span></p>`;
}

// The dice check, the same derivation as tresfute.fair_dice (see docs/web.md).
function word(text) {
  const bytes = window.sha256.array(text);
  return ((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3];
}

function dieValue(secret, roll, die) {
  for (let j = 0; ; j += 1) {
    const x = word(`${secret}:${roll}:${die}:${j}`);
    if (x < 4294967292) return (x % 6) + 1;
  }
}

async function checkDice(view, token) {
  if (window.sha256(view.secret) !== view.commitment) return t("The revealed secret does not match the published hash!");
  const record = await api(`/api/games/${view.id}/record`, { headers: { ...playerHeaders(), ...seatHeaders(token) } });
  let roll = 0;
  const problems = [];
  for (const entry of record.moves) {
    const text = entry.includes(":") && !entry.startsWith("dice ") ? entry.slice(entry.indexOf(":") + 1) : entry;
    if (!text.startsWith("dice ")) continue;
    roll += 1;
    const [diceText, platterText] = text.slice(5).split(" platter=");
    const dice = diceText.split(" ").map((d) => [d[0], Number(d.slice(1))]);
    for (const [d, v] of dice) if (dieValue(view.secret, roll, d) !== v) problems.push(`${roll}: ${d}${v}`);
    if (platterText) {
      const lowest = dice.map(([d, v]) => [d, v, word(`${view.secret}:${roll}:${d}:platter`)])
        .sort((a, b) => a[1] - b[1] || a[2] - b[2]).slice(0, 3).map((x) => x[0]);
      if ([...platterText].sort().join("") !== lowest.sort().join("")) problems.push(`${roll}: platter=${platterText}`);
    }
  }
  return problems.length ? t("Rolls that do not match: {rolls}", { rolls: problems.join(", ") })
    : tn("The only roll matches the secret seed.", "All {n} rolls match the secret seed.", roll);
}

/** The published hash of the game's secret seed, the seed once revealed, and the check. */
export function Fairness({ view, token }) {
  const [verdict, setVerdict] = useState("");
  const check = () => checkDice(view, token).then(setVerdict, (e) => setVerdict(e.message));
  return html`<details class="panel fairness" id="fairness">
    <summary>${t("Fair dice")}</summary>
    <p>${t("The server published a hash of this game's secret seed before the first roll; it reveals the seed at the end, and this page derives every roll from it again.")}</p>
    <p class="hash">${t("Published hash: {hash}", { hash: "" })}<code id="commitment">${view.commitment}</code></p>
    ${view.secret ? html`<p class="hash">${t("Secret seed: {secret}", { secret: "" })}<code>${view.secret}</code></p>
      <p><button type="button" id="verify" onClick=${check}>${t("Check the dice")}</button></p>`
      : html`<p>${view.challenge ? t("The day's seed is revealed when the day is over.") : t("The seed is revealed at the end of the game.")}</p>`}
    <p id="verify-result" role="status">${verdict}</p>
  </details>`;
}

async function download(event, view, token) {
  event.preventDefault();
  const response = await fetch(`/api/games/${view.id}/record?lang=${document.documentElement.lang}`,
    { headers: { ...playerHeaders(), ...seatHeaders(token) } }).catch(() => null);
  if (!response || !response.ok) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `tresfute-${view.id}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The review of one's own decisions (a spectator: of each person's); a daily challenge's entry
 * once its day is over (its secret revealed), as the server allows. */
function ReviewLinks({ view, token }) {
  if (view.challenge && !view.secret) return html`<p class="review-later">${t("The review opens when the day is over.")}</p>`;
  const seated = view.you !== null && view.you !== undefined;
  if (seated) {
    return html`<p><a href=${`/g/${view.id}?review#seat=${token}`} id="review-link" class="primary-link">${t("Review my game")}</a></p>`;
  }
  return html`<p>${view.seats.map((s, i) => (s.bot ? null : html`<a href=${`/g/${view.id}?review=${i + 1}`} class="review-link">
    ${t("Review {name}'s game", { name: s.name })}</a> `))}</p>`;
}

/** The next game: "Play again" (a seat: the same game, rules options, players and dice, the one who asks in
 * the first person's seat, as the game's creator is: the page gets the others' invitation links) and "New game" (the home page's form). */
function NextGame({ view }) {
  const [error, setError] = useState("");
  const seated = view.you !== null && view.you !== undefined;
  const again = async () => {
    const seats = view.seats.map((s) => ({ name: s.name, bot: s.bot || null }));
    const first = seats.findIndex((s) => !s.bot); // the creator's seat: the asker's, in the new game
    [seats[first], seats[view.you]] = [seats[view.you], seats[first]];
    const me = seats[first];
    try {
      const created = await asPlayer(me.name, (headers) => api("/api/games", {
        method: "POST",
        headers,
        body: { game: view.game, seats, real_dice: view.real_dice, rules: view.rules || {},
          language: document.documentElement.lang },
      }));
      const mine = created.seats[first];
      const invitations = created.seats.filter((s) => s.token && s !== mine).map((s) => ({ name: s.name, link: location.origin + s.link }));
      remember({ id: created.id, token: mine.token, name: mine.name, game: view.game, invitations, created: Date.now() });
      location.assign(mine.link);
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<div class="next-game">
    ${seated ? html`<button type="button" id="play-again" class="primary-button" onClick=${again}>${t("Play again")}</button>` : null}
    <a href="/#new-game" id="new-game-end" class="button-link">${t("New game")}</a>
    <p class="error" role="alert">${error}</p>
  </div>`;
}

export function EndOfGame({ layout, view, token }) {
  const result = view.result;
  const solo = view.seats.length === 1;
  const order = view.seats.map((_, i) => i).sort((a, b) => result.scores[b].total - result.scores[a].total);
  return html`<section class="panel end" id="end" aria-labelledby="end-title">
    <h2 id="end-title">${t("End of the game")}</h2>
    ${solo ? html`<p class="final-score">${t("Your score: {score}", { score: num(result.scores[0].total) })}</p>
      <${Rating} rating=${result.rating} />`
      : html`<p class="winners">${result.winners.length > 1
        ? t("Shared victory: {names}", { names: result.winners.map((i) => view.seats[i].name).join(", ") })
        : t("{name} wins.", { name: view.seats[result.winners[0]].name })}</p>`}
    <${NextGame} view=${view} />
    <div class="breakdown-wrap"><table class="breakdown">
      <thead><tr><th scope="col">${t("Player")}</th>
        ${layout.areas.map((a) => html`<th scope="col"><span class="swatch" data-area=${a.letter}><${ColourMark} letter=${a.letter} /></span><span class="area-name">${a.name}</span></th>`)}
        <th scope="col"><${FoxPicture} label=${t("Foxes")} /></th><th scope="col">${t("Total")}</th></tr></thead>
      <tbody>${order.map((i) => {
        const s = result.scores[i];
        const winner = !solo && result.winners.includes(i);
        return html`<tr class=${winner ? "winner" : ""}><th scope="row">${view.seats[i].name}${winner ? html` <small>(${t("winner")})</small>` : null}</th>
          ${layout.areas.map((a) => html`<td>${num(s.areas[a.letter])}</td>`)}
          <td class="foxes">${num(s.foxes)} × ${num(s.fox_value)}</td><td><b>${num(s.total)}</b></td></tr>`;
      })}</tbody>
    </table></div>
    <p><a href=${`/api/games/${view.id}/record`} download=${`tresfute-${view.id}.json`} id="record-link"
      onClick=${(event) => download(event, view, token)}>${t("Download the game record")}</a>
      ${" · "}<a href=${`/g/${view.id}?replay`} id="replay-link">${t("Replay the game move by move")}</a></p>
    <${ReviewLinks} view=${view} token=${token} />
  </section>`;
}

