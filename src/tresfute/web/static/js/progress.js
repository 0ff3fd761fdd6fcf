// A player's progress (/me): their name, every finished game with its score and review figures,
// the scores over time for each game, their solo scores against the strong computer player's,
// their mean cost per decision over time, the practice positions they solved (a review's costly
// decisions played again: "Try again"), their challenges, the exports, and the link that moves
// the player's secret to another device (/me#player=<secret>: the # part never reaches a server).
import { api } from "./api.js";
import { Histogram, LineChart } from "./chart.js";
import { html, useEffect, useState } from "./lib.js";
import { date, gameName, lang, num, sentence, t, tn } from "./i18n.js";
import { TOKEN_SHAPE, player, playerLink, setPlayer } from "./memory.js";

const GAMES = ["tres-fute", "vraiment-tres-fute"];
const today = () => new Date().toISOString().slice(0, 10); // the challenge's days are UTC days
const percent = (value) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
const asked = (token) => ({ "X-Player-Token": token });

/** The secret in a link (…/me#player=…) or a code pasted as it is; null if it is neither. */
function secretIn(text) {
  const trimmed = (text || "").trim();
  const found = trimmed.includes("player=") ? new URLSearchParams(trimmed.split("#").pop()).get("player") : trimmed;
  return found && TOKEN_SHAPE.test(found) ? found : null;
}

/** A file the server makes for the player (the secret in a header, so no plain link). */
async function download(path, filename) {
  const response = await fetch(`${path}?lang=${lang}`, { headers: asked(player().token) });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || t("The server refused the request."));
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Name({ name, onRenamed }) {
  const [value, setValue] = useState(name);
  const [said, setSaid] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    try {
      const renamed = await api("/api/players/me", { method: "PUT", headers: asked(player().token), body: { name: value.trim() } });
      setPlayer(player().token, renamed.name);
      onRenamed(renamed.name);
      setSaid(t("Saved."));
    } catch (e) {
      setSaid(e.message);
    }
  };
  return html`<form class="form-line" id="player-name" onSubmit=${submit}>
    <label>${t("Name")} <input id="player-name-input" maxlength="40" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} /></label>
    <button type="submit">${t("Change")}</button> <span role="status">${said}</span>
  </form>`;
}

function Move({ token }) {
  const [copied, setCopied] = useState("");
  const link = playerLink(token);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(t("Copied."));
    } catch {
      document.getElementById("player-link").select();
      setCopied(t("Selected: copy it."));
    }
  };
  return html`<details class="move-player" id="move-player"><summary>${t("Use this progress on another device")}</summary>
    <p>${t("Open this link on the other device (or paste it on its progress page): it keeps the same history there.")}</p>
    <p class="form-line"><input id="player-link" class="player-link-field" readonly value=${link} aria-label=${t("Your player's link")}
      onFocus=${(e) => e.currentTarget.select()} />
      <button type="button" onClick=${copy}>${t("Copy")}</button> <span role="status">${copied}</span></p>
    <p class="warning">${t("Whoever has this link is you on this site: they see your games and add theirs to your history. Keep it to yourself.")}</p>
  </details>`;
}

function Paste() {
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const submit = (event) => {
    event.preventDefault();
    const secret = secretIn(text);
    if (!secret) return setError(t("This is neither a player's link nor a code."));
    location.assign(`/me#player=${secret}`);
  };
  return html`<form class="panel" id="paste-player" onSubmit=${submit}>
    <h2>${t("Your progress from another device")}</h2>
    <p>${t("Paste the link (or its code) that your other device shows under “Use this progress on another device”.")}</p>
    <p class="form-line"><input id="paste-player-input" aria-label=${t("Player's link or code")} value=${text}
      placeholder="https://…/me#player=…" onInput=${(e) => setText(e.currentTarget.value)} />
      <button type="submit">${t("Use it")}</button></p>
    <p class="error" role="alert">${error}</p>
  </form>`;
}

function GameRow({ g }) {
  const notYet = g.challenge && g.challenge >= today(); // a challenge's review waits for the day's end
  const players = g.players.map((p, i) => (i === g.seat - 1 ? html`<b>${p.name}</b>` : p.name));
  return html`<tr data-game=${g.id}>
    <td data-label=${t("Date")}>${date(g.finished)}</td>
    <td data-label=${t("Game")}>${gameName(g.game)}${g.challenge ? html` <small>(${t("challenge")})</small>` : null}</td>
    <td data-label=${t("Players")} class="names">${players.map((p, i) => html`${i ? ", " : ""}${p}`)}</td>
    <td data-label=${t("Score")} class="score">${num(g.score)}</td>
    <td data-label=${t("Accuracy")}>${g.reviewed ? percent(g.accuracy) : "–"}</td>
    <td data-label=${t("Cost per decision")}>${g.reviewed ? num(g.mean_cost, 2) : "–"}</td>
    <td class="links"><a href=${`/g/${g.id}?replay`}>${t("replay")}</a>
      ${g.reviewed ? html` · <a class="review-link" href=${`/g/${g.id}?review=${g.seat}`}>${t("see the review")}</a>`
        : notYet ? html` · <small>${t("review after the day")}</small>`
        : html` · <a class="review-link not-reviewed" href=${`/g/${g.id}?review=${g.seat}`}>${t("not reviewed: review it")}</a>`}
      ${g.reviewed && g.to_practise ? html` · <small class="solved">${t("practice: {solved} of {total} solved", { solved: num(g.solved), total: num(g.to_practise) })}</small>` : null}</td>
  </tr>`;
}

function Games({ games }) {
  return html`<section class="panel" id="progress-games" aria-labelledby="progress-games-title">
    <h2 id="progress-games-title">${t("Finished games")}</h2>
    ${games.length ? html`<div class="table-wrap progress-table" tabindex="0" role="region" aria-labelledby="progress-games-title"><table>
      <thead><tr><th scope="col">${t("Date")}</th><th scope="col">${t("Game")}</th><th scope="col">${t("Players")}</th>
        <th scope="col">${t("Score")}</th><th scope="col">${t("Accuracy")}</th><th scope="col">${t("Cost per decision")}</th><th scope="col"></th></tr></thead>
      <tbody>${[...games].reverse().map((g) => html`<${GameRow} g=${g} key=${g.id} />`)}</tbody>
    </table></div>
    <p class="note">${t("Accuracy and cost per decision come from a game's review (the strong computer player's judgement of each decision); a game not reviewed yet is reviewed when you open its link.")}</p>`
      : html`<p id="no-games">${t("No finished game yet: the games you start, join or play in the daily challenge on this browser count here.")}</p>`}
  </section>`;
}

function Charts({ games, strong }) {
  const played = GAMES.filter((game) => games.some((g) => g.game === game));
  const reviewed = games.filter((g) => g.reviewed);
  const label = (g, i) => t("game {n}, {date}", { n: i + 1, date: date(g.finished) });
  return html`<section class="panel progress-charts" id="progress-charts" aria-labelledby="progress-charts-title">
    <h2 id="progress-charts-title">${t("Over time")}</h2>
    ${played.map((game) => {
      const mine = games.filter((g) => g.game === game);
      const solo = mine.filter((g) => g.solo).map((g) => g.score);
      return html`<div class="progress-game" data-game=${game}>
        <h3>${gameName(game)}</h3>
        <${LineChart} id=${`score-chart-${game}`} dots=${true} digits=${0} title=${t("Your scores, game after game")}
          points=${mine.map((g, i) => ({ value: g.score, label: label(g, i), group: date(g.finished, { short: true }) }))}
          valueName=${t("Score")} groupName=${t("Day")} />
        ${solo.length ? html`<${Histogram} id=${`histogram-${game}`} title=${t("Your solo scores and the strong computer player's")}
            valueName=${t("Score")} series=${[{ name: t("You"), values: solo, kind: "you" },
              { name: t("Strong computer"), values: strong.scores[game], kind: "strong" }]} />
          <p class="note">${t("The strong computer player's scores: {count} seeded solo games (seed {seed}).",
            { count: num(strong.scores[game].length), seed: strong.seed })}</p>`
          : html`<p class="note">${t("Play a solo game of it to compare your scores with the strong computer player's.")}</p>`}
      </div>`;
    })}
    <h3>${t("Am I improving? Mean cost per decision")}</h3>
    ${reviewed.length ? html`<${LineChart} id="cost-chart" dots=${true} digits=${2} title=${t("Expected points lost per decision, game after game (lower is better)")}
        points=${reviewed.map((g, i) => ({ value: g.mean_cost, label: `${label(g, i)} (${gameName(g.game)})`, group: date(g.finished, { short: true }) }))}
        valueName=${t("Cost per decision")} groupName=${t("Day")} />`
      : html`<p class="note" id="no-cost">${t("No reviewed game yet: review a finished game to see what your decisions cost.")}</p>`}
  </section>`;
}

/** The review themes over the player's reviewed games (players.themes_over), costliest first:
 * what kind of mistake costs the player most, with its tip. */
function Themes({ themes }) {
  if (!themes || !themes.length) return null;
  return html`<section class="panel" id="progress-themes" aria-labelledby="progress-themes-title">
    <h2 id="progress-themes-title">${t("Mistakes by theme")}</h2>
    <ul class="themes">${themes.map((theme) => html`<li class="theme" data-theme=${theme.theme}>
      <p><b>${theme.title}</b> — ${tn("{n} decision, {cost} points", "{n} decisions, {cost} points", theme.count, { n: num(theme.count), cost: num(theme.cost, 1) })}
        (${tn("in {n} game", "in {n} games", theme.games, { n: num(theme.games) })})</p>
      <p class="tip">${sentence(theme.tip)}.</p></li>`)}</ul>
  </section>`;
}

function Challenges({ entries }) {
  if (!entries.length) return null;
  return html`<section class="panel" id="progress-challenges" aria-labelledby="progress-challenges-title">
    <h2 id="progress-challenges-title">${t("My challenges")}</h2>
    <ul>${entries.map((e) => html`<li>${date(e.day)} — ${gameName(e.game)} — ${e.name} — ${e.score === null ? t("in progress") : num(e.score)}
      ${e.score !== null ? html` <a href=${`/g/${e.id}?replay`}>${t("replay")}</a>` : null}</li>`)}</ul>
  </section>`;
}

function Export() {
  const [error, setError] = useState("");
  const get = (path, filename) => download(path, filename).then(() => setError(""), (e) => setError(e.message));
  return html`<section class="panel" id="progress-export" aria-labelledby="progress-export-title">
    <h2 id="progress-export-title">${t("Export")}</h2>
    <p class="form-line">
      <button type="button" id="export-records" onClick=${() => get("/api/players/me/records.json", "tresfute-records.json")}>${t("My games as records (JSON)")}</button>
      <button type="button" id="export-csv" onClick=${() => get("/api/players/me/games.csv", "tresfute-games.csv")}>${t("My table (CSV)")}</button></p>
    <p class="error" role="alert">${error}</p>
  </section>`;
}

/** A link's secret, another than this browser's: which one to keep. */
function Choose({ secret, onDone }) {
  return html`<section class="panel" id="choose-player" role="alertdialog" aria-labelledby="choose-player-title">
    <h2 id="choose-player-title">${t("Another player's link")}</h2>
    <p>${t("This browser already has a player. Use the link's player here instead? This browser's own history stays on the server, but only its link brings it back: save it first.")}</p>
    <p class="form-line"><input class="player-link-field" readonly value=${playerLink(player().token)} aria-label=${t("This browser's player link")}
      onFocus=${(e) => e.currentTarget.select()} /></p>
    <p class="form-line"><button type="button" class="primary-button" id="use-link-player" onClick=${() => onDone(secret)}>${t("Use the link's player")}</button>
      <button type="button" id="keep-player" onClick=${() => onDone(null)}>${t("Keep this browser's")}</button></p>
  </section>`;
}

export function ProgressPage() {
  const linked = new URLSearchParams(location.hash.slice(1)).get("player");
  const [state, setState] = useState({ loading: true });
  const [choosing, setChoosing] = useState(linked && player().token && linked !== player().token ? linked : null);

  const load = async (secret) => {
    if (!secret) return setState({ none: true });
    try {
      const found = await api("/api/players/me", { headers: asked(secret) });
      if (secret !== player().token) setPlayer(secret, found.name); // a link's secret, checked: kept from now on
      setState({ found });
    } catch (e) {
      setState({ error: e.message });
    }
  };

  useEffect(() => {
    document.title = t("My progress — tresfute");
    if (choosing) return;
    if (linked) {
      history.replaceState(null, "", "/me"); // the secret leaves the address bar (and the history)
      if (!TOKEN_SHAPE.test(linked)) return setState({ error: t("This is neither a player's link nor a code.") });
      load(linked);
    } else load(player().token);
  }, []);

  if (choosing) {
    return html`<${Choose} secret=${choosing} onDone=${(secret) => {
      history.replaceState(null, "", "/me");
      setChoosing(null);
      load(secret || player().token);
    }} />`;
  }
  const { found } = state;
  return html`<div class="progress-page" id="progress">
    ${state.loading ? html`<p class="loading">…</p>` : null}
    ${state.error ? html`<p class="error panel" role="alert" id="progress-error">${state.error}</p>` : null}
    ${state.none ? html`<section class="panel" id="no-player"><h1>${t("My progress")}</h1>
      <p>${t("This browser has no player yet: start a game, take a seat or play the daily challenge, and your finished games show here.")}</p></section>` : null}
    ${found ? html`<section class="panel" id="player" aria-labelledby="player-title">
        <h1 id="player-title">${t("My progress")}</h1>
        <${Name} name=${found.name} onRenamed=${(name) => setState({ found: { ...found, name } })} />
        <p id="practice-solved">${tn("{n} practice position solved: a costly decision of a review played again, within half a point of the best.",
          "{n} practice positions solved: costly decisions of your reviews played again, within half a point of the best.", found.solved)}</p>
        <p>${t("Your history is kept on this site by a secret that this browser holds: no password.")}</p>
        <${Move} token=${player().token} />
      </section>
      <${Games} games=${found.games} />
      ${found.games.length ? html`<${Charts} games=${found.games} strong=${found.strong} />` : null}
      <${Themes} themes=${found.themes} />
      <${Challenges} entries=${found.challenges} />
      ${found.games.length ? html`<${Export} />` : null}` : null}
    ${state.loading ? null : html`<${Paste} />`}
  </div>`;
}
