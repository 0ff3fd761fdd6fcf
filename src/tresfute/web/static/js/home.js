// The home page: a new game and the day's challenge first, then the games this browser plays,
// the open tables and joining by link. Seeds and hashes belong to a game's fairness panel.
import { api } from "./api.js";
import { html, useEffect, useState } from "./lib.js";
import { choices, date, gameName, num, sentence, t } from "./i18n.js";
import { asPlayer, gameLink, player, playerHeaders, remember, remembered, setGuide, setPlayer } from "./memory.js";

// The games, computer players and rules options come from the server's one list (/api/choices).
const gameIds = () => choices().games.map((g) => g.id);
const today = () => new Date().toISOString().slice(0, 10); // the challenge's days are UTC days
const reviewLink = (g) => `/g/${g.id}?review${g.token ? `#seat=${g.token}` : ""}`;
const seatChoices = () => [["", t("Person")], ...choices().players.map((p) => [p.name, p.label])];
const seatDefault = (i) => (i > 0 ? choices().table_player ?? "" : ""); // a computer seat at a table plays to win
/** The rules chosen off their default, as one reading ({} the default reading). */
const reading = (options, rules) => Object.fromEntries(options.filter((o) => o.name in rules && rules[o.name] !== o.default)
  .map((o) => [o.name, rules[o.name]]));
const sameReading = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);

function NewGame() {
  const [count, setCount] = useState(1);
  const [game, setGame] = useState(() => gameIds()[0]);
  const [rules, setRules] = useState({}); // the rules options changed from their default
  const [kinds, setKinds] = useState({}); // the seats' choices changed from their default
  const [names, setNames] = useState({}); // the names typed (kept when the form is drawn again)
  const spec = choices().games.find((g) => g.id === game) ?? { players: [1, 2, 3, 4], rules: [], trained: [{}] };
  const kindOf = (i) => kinds[i] ?? seatDefault(i);
  const networkSeat = Array.from({ length: count }, (_, i) => kindOf(i))
    .some((kind) => choices().players.some((p) => p.name === kind && p.network));
  const untrained = networkSeat && !spec.trained.some((r) => sameReading(r, reading(spec.rules, rules)));
  const [firstGame] = useState(() => remembered().length === 0); // a newcomer: the guide by default
  const [error, setError] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const seats = [...form.querySelectorAll(".seat-row")].map((row) => ({
      // no name given: "Player 1" for the others, while this browser's own page says "you"
      name: row.querySelector(".seat-name").value.trim() || t("Player {n}", { n: Number(row.dataset.seat) + 1 }),
      bot: row.querySelector(".seat-kind").value || null,
    }));
    try {
      const me = [...form.querySelectorAll(".seat-row")].find((row) => !row.querySelector(".seat-kind").value);
      const typed = me ? me.querySelector(".seat-name").value.trim() : ""; // the player's own name, if given
      const created = await asPlayer(typed, (headers) => api("/api/games", {
        method: "POST",
        headers,
        body: { game, seats, real_dice: form.querySelector("#real-dice").checked, language: document.documentElement.lang,
          listed: form.querySelector("#listed").checked, rules: reading(spec.rules, rules) },
      }));
      const mine = created.seats.find((s) => s.token);
      const invitations = created.seats.filter((s) => s.token && s !== mine).map((s) => ({ name: s.name, link: location.origin + s.link }));
      remember({ id: created.id, token: mine.token, name: mine.name, game, invitations, created: Date.now() });
      if (form.querySelector("#guided").checked) setGuide(created.id, { on: true, seen: [] });
      location.assign(mine.link);
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<form id="new-game" class="panel card" onSubmit=${submit}>
    <h2>${t("New game")}</h2>
    <div class="form-line">
      <label>${t("Game")} <select id="game-choice" value=${game} onChange=${(e) => { setGame(e.currentTarget.value); setRules({}); }}>
        ${choices().games.map((g) => html`<option value=${g.id}>${g.name}</option>`)}</select></label>
      <label>${t("Players")} <select id="players" value=${count} onChange=${(e) => setCount(Number(e.currentTarget.value))}>
        ${spec.players.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>
    </div>
    <div id="seats">${Array.from({ length: count }, (_, i) => html`<div class="seat-row" key=${i} data-seat=${i}>
      <span class="seat-number">${t("Seat {n}", { n: i + 1 })}</span>
      <select class="seat-kind" data-seat=${i} aria-label=${t("Seat {n}", { n: i + 1 })}
        onChange=${(e) => setKinds({ ...kinds, [i]: e.currentTarget.value })}>
        ${seatChoices().map(([value, label]) => html`<option value=${value} selected=${kindOf(i) === value}>${label}</option>`)}
      </select>
      <input class="seat-name" aria-label=${t("Name of seat {n}", { n: i + 1 })} maxlength="40"
        value=${names[i] ?? (i === 0 ? (player().name || "") : t("Player {n}", { n: i + 1 }))}
        onInput=${(e) => setNames({ ...names, [i]: e.currentTarget.value })} placeholder=${i === 0 ? t("Your name") : null} />
    </div>`)}</div>
    <label class="check guided"><input type="checkbox" id="guided" checked=${firstGame} />
      ${t("Guided game: explain each step")}</label>
    <p class="learn-line"><a href="/rules" id="learn-link">${t("Learn to play: the rules, illustrated")}</a></p>
    <details class="options"><summary>${t("Options")}</summary>
      <label class="check"><input type="checkbox" id="real-dice" /> ${t("Real dice: we roll our own dice at the table and type them")}</label>
      <label class="check"><input type="checkbox" id="listed" /> ${t("Open table: list it on the home page, the other people's seats free for anyone to take")}</label>
      ${spec.rules.map((o) => html`<label class="check" key=${`${game}-${o.name}`}><input type="checkbox" id=${`rule-${o.name}`}
        class="rule-option" data-rule=${o.name} checked=${rules[o.name] ?? o.default}
        onChange=${(e) => setRules({ ...rules, [o.name]: e.currentTarget.checked })} /> ${o.label}</label>`)}
    </details>
    ${untrained ? html`<p class="note" id="untrained-rules" role="status">${t("The strong computer player was not trained for these rules: it may play them less well.")}</p>` : null}
    <button type="submit" id="start" class="primary-button">${t("Start the game")}</button>
    <p class="error" role="alert">${error}</p>
  </form>`;
}

function Board({ board }) {
  const place = (rank) => t("{rank}.", { rank });
  return html`<div class="challenge-board" data-game=${board.game}>
    <h3>${gameName(board.game)}</h3>
    ${board.entries.length ? html`<ol class="ranking">${board.entries.slice(0, 10).map((e) => html`<li>
      <span class="rank">${place(e.rank)}</span> <span class="name">${e.name}</span> <b>${num(e.score)}</b>
      <a href=${`/g/${e.id}?replay`} class="replay-link">${t("replay")}</a></li>`)}</ol>`
      : html`<p>${t("No finished game yet today.")}</p>`}
    ${board.strong ? html`<p class="strong-player">${t("The strong computer player on the same dice: {score}", { score: num(board.strong.score) })}</p>` : null}
  </div>`;
}

/** A name worth offering again: one with a letter or a digit (not the "?" of a player made without a name). */
const realName = (name) => (typeof name === "string" && /[\p{L}\p{N}]/u.test(name) ? name : "");

/** An entry of "My challenges" opened in this browser: its seat link if this browser keeps it,
 * else asked of the server with the player's secret (an entry begun on another device). */
async function openEntry(entry) {
  const kept = remembered().find((g) => g.id === entry.id && g.token);
  if (kept) return location.assign(gameLink(kept));
  const seat = await api(`/api/challenge/entries/${entry.id}/seat`, { method: "POST", headers: playerHeaders() });
  remember({ id: seat.id, token: seat.token, name: seat.name, game: seat.game, created: Date.now() });
  location.assign(seat.link);
}

function Challenge() {
  const [name, setName] = useState(realName(player().name));
  const [error, setError] = useState("");
  const [boards, setBoards] = useState([]);
  const [history, setHistory] = useState([]);
  useEffect(() => {
    Promise.all(gameIds().map((g) => api(`/api/challenge/${g}`, { headers: playerHeaders() }).catch(() => null)))
      .then((found) => setBoards(found.filter(Boolean)));
    if (player().token) api("/api/challenge/history", { headers: playerHeaders() }).then((h) => setHistory(h.entries), () => {});
  }, []);
  const [busy, setBusy] = useState(false); // an entry on its way: no second click makes a second one
  const played = new Set(boards.filter((b) => b.you).map((b) => b.game)); // one entry per game a day
  const start = async (game) => {
    if (!name.trim()) { // asked for, never made up: the name is shown in the day's ranking
      setError(t("Choose a name for the challenge: the day's ranking shows it."));
      document.getElementById("challenge-name").focus();
      return;
    }
    setBusy(true);
    try {
      const created = await api(`/api/challenge/${game}`, { method: "POST", headers: playerHeaders(), body: { name: name.trim() } });
      setPlayer(created.player, name.trim());
      remember({ id: created.id, token: created.token, name: name.trim(), game, created: Date.now() });
      location.assign(created.link);
    } catch (e) {
      setError(sentence(e.message));
      setBusy(false);
    }
  };
  return html`<section class="panel card" id="challenge" aria-labelledby="challenge-title">
    <h2 id="challenge-title">${t("Daily challenge")}</h2>
    <p>${t("Every day, one solo game of each kind on the same dice for everyone: play it once, then compare.")}</p>
    <label>${t("Name")} <input id="challenge-name" maxlength="40" value=${name} required placeholder=${t("Your name")}
      aria-invalid=${error && !name.trim() ? "true" : null} aria-describedby="challenge-error"
      onInput=${(e) => { setName(e.currentTarget.value); setError(""); }} aria-label=${t("Your name in the challenge")} /></label>
    <p class="challenge-buttons"><span class="challenge-play">${t("Play today's game:")}</span>${gameIds().map((g) => html`<button type="button" class="challenge-start primary-button" data-game=${g}
      disabled=${busy || played.has(g)} title=${played.has(g) ? sentence(t("you have already played today's challenge of this game")) : null}
      onClick=${() => start(g)}>${gameName(g)}</button>`)}</p>
    <p class="error" role="alert" id="challenge-error">${error}</p>
    <div id="challenge-boards">${boards.map((b) => html`<${Board} board=${b} />`)}</div>
    ${history.length ? html`<h3>${t("My challenges")}</h3>` : null}
    <ul id="challenge-history">${history.map((e) => html`<li data-entry=${e.id}>${date(e.day)} — ${gameName(e.game)} — ${e.name} — ${e.score === null ? t("in progress") : num(e.score)}
      ${e.score === null ? html` <a class="resume-link" href=${`/g/${e.id}`} onClick=${(event) => {
        event.preventDefault();
        openEntry(e).catch((problem) => setError(sentence(problem.message)));
      }}>${t("continue")}</a>` : null}
      ${e.score !== null ? html` <a href=${`/g/${e.id}?replay`}>${t("replay")}</a>` : null}
      ${e.score !== null && e.day < today() ? html` <a class="review-link" href=${`/g/${e.id}?review`}>${t("review")}</a>` : null}</li>`)}</ul>
  </section>`;
}

function OpenTables() {
  const [games, setGames] = useState(null);
  const [name, setName] = useState(player().name || "");
  const [error, setError] = useState("");
  useEffect(() => { api("/api/open").then((found) => setGames(found.games), () => setGames([])); }, []);
  const take = async (g) => {
    try {
      // no name given: the seat's number, as a new game's ("Player 2"), for the others to read
      const named = name.trim() || t("Player {n}", { n: g.seats.findIndex((s) => s.free) + 1 });
      const joined = await asPlayer(named, (headers) => api(`/api/games/${g.id}/join`,
        { method: "POST", headers, body: { name: named } }));
      remember({ id: g.id, token: joined.token, name: named, game: g.game, created: Date.now() });
      location.assign(joined.link);
    } catch (e) {
      setError(e.message);
    }
  };
  return html`<section class="panel" id="open" aria-labelledby="open-title">
    <h2 id="open-title">${t("Open tables")}</h2>
    <label>${t("Name")} <input id="open-name" maxlength="40" value=${name} placeholder=${t("Your name")} onInput=${(e) => setName(e.currentTarget.value)}
      aria-label=${t("Your name at the table")} /></label>
    <ul id="open-tables">${games === null ? null : games.length === 0 ? html`<li>${t("No open table right now.")}</li>`
      : games.map((g) => html`<li data-game=${g.id}>${gameName(g.game)} — ${g.seats.map((s) => (s.free ? t("free seat") : s.name)).join(", ")}
        <button type="button" class="take-seat" onClick=${() => take(g)}>${t("Take a seat")}</button></li>`)}</ul>
    <p class="error" role="alert">${error}</p>
  </section>`;
}

/** The games this browser plays, asked of the server once: those in progress and those over. */
function useMyGames() {
  const [games, setGames] = useState({ running: [], finished: [] });
  useEffect(() => {
    for (const g of remembered()) {
      api(`/api/games/${g.id}`, { headers: g.token ? { "X-Seat-Token": g.token } : {} }).then((view) => {
        if (view.over) {
          const scores = view.result.scores.map((s, i) => `${view.seats[i].name} ${num(s.total)}`).join(" · ");
          const reviewable = !view.challenge || Boolean(view.secret); // a challenge entry: once its day is over
          const item = { g, text: `${gameName(view.game)} — ${scores}`, reviewable };
          setGames((all) => ({ ...all, finished: [...all.finished, item] }));
        } else {
          const names = view.seats.map((s) => s.name).join(", ");
          const item = { g, text: `${gameName(view.game)} — ${names} — ${view.status}` };
          setGames((all) => ({ ...all, running: [...all.running, item] }));
        }
      }, () => {});
    }
  }, []);
  return games;
}

function Running({ games }) {
  return html`<section class="panel" id="running" aria-labelledby="running-title">
    <h2 id="running-title">${t("My games in progress")}</h2>
    <ul id="my-games">${games.length ? games.map(({ g, text }) => html`<li><a href=${gameLink(g)}>${text}</a></li>`)
      : html`<li class="none">${t("No game in progress.")}</li>`}</ul>
  </section>`;
}

function Finished({ games }) {
  return html`<section class="panel" id="finished" aria-labelledby="finished-title">
    <h2 id="finished-title">${t("Finished games")}</h2>
    <ul id="finished-games">${games.map(({ g, text, reviewable }) => html`<li><a href=${gameLink(g)}>${text}</a>
      ${reviewable ? html` <a class="review-link" href=${reviewLink(g)}>${t("review")}</a>` : null}</li>`)}</ul>
    ${games.length ? null : html`<p class="none">${t("No finished game in this browser yet.")}</p>`}
    <p><a href="/me" id="progress-from-home">${t("My progress: every game, charts, exports")}</a></p>
  </section>`;
}

function Join() {
  const [link, setLink] = useState("");
  const [error, setError] = useState("");
  const submit = (event) => {
    event.preventDefault();
    try {
      const url = new URL(link.trim(), location.origin);
      if (!url.pathname.startsWith("/g/")) throw new Error();
      location.assign(url.pathname + url.hash);
    } catch {
      setError(t("This is not a game link."));
    }
  };
  return html`<form id="join" class="panel" onSubmit=${submit}>
    <h2>${t("Join by link")}</h2>
    <input id="join-link" aria-label=${t("Invitation link")} placeholder="https://…/g/…#seat=…" value=${link}
      onInput=${(e) => setLink(e.currentTarget.value)} />
    <button type="submit">${t("Join")}</button>
    <p class="error" role="alert">${error}</p>
  </form>`;
}

export function HomePage() {
  useEffect(() => {
    document.title = t("tresfute — Très futé and Vraiment très futé");
    if (location.hash === "#new-game") { // the header's or the end's "New game"
      document.getElementById("new-game").scrollIntoView();
      document.getElementById("game-choice").focus();
    }
  }, []);
  const mine = useMyGames();
  return html`<div class="home">
    <h1 class="visually-hidden">${t("tresfute — Très futé and Vraiment très futé")}</h1>
    <div class="home-top"><div class="home-column"><${NewGame} /><${Running} games=${mine.running} /></div><${Challenge} /></div>
    <div class="home-more"><${Finished} games=${mine.finished} /><${OpenTables} /><${Join} /></div>
  </div>`;
}
