// The page's entry: the language, the route (home, a game, a replay, a review, the rules, the
// player's progress) and the connection banner. Each route's module is loaded only on its own
// page (a game page never loads the progress page's code), while the messages load.
import { api, onConnection } from "./api.js";
import { html, render, useEffect, useState } from "./lib.js";
import { choices, chooseLanguage, lang, setChoices, setStrings, t, version } from "./i18n.js";

const layouts = new Map();
const layoutFor = (game) => {
  if (!layouts.has(game)) layouts.set(game, api(`/api/layout/${game}?v=${version}`, { retry: true }));
  return layouts.get(game);
};

function Connection() {
  const [lost, setLost] = useState(false);
  useEffect(() => onConnection(setLost), []);
  return lost ? html`<p class="connection" role="status">${lost}</p>` : null;
}

function Header() {
  return html`<header class="top">
    <a href="/" class="brand" id="home-link">tresfute</a>
    <a href="/rules" class="rules-link" id="rules-link">${t("Rules")}</a>
    <a href="/#new-game" class="new-game-link" id="new-game-link">${t("New game")}</a>
    <a href="/me" class="me-link" id="me-link">${t("My progress")}</a>
    <label class="language"><span>${t("Language")}</span>
      <select id="language" value=${lang} onChange=${(e) => { chooseLanguage(e.currentTarget.value); location.reload(); }}>
        ${choices().languages.map((l) => html`<option value=${l.code} lang=${l.code}>${l.name}</option>`)}
      </select></label>
  </header>`;
}

/** The page this address shows: its module (loaded when needed) and how to draw it from it. */
function route() {
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  const query = new URLSearchParams(location.search);
  if (match && query.has("review")) {
    const player = Number(query.get("review")) || null;
    return [() => import("./review.js"), (m) => html`<${m.ReviewPage} id=${match[1]} token=${token} player=${player} layoutFor=${layoutFor} />`];
  }
  if (match && query.has("replay")) return [() => import("./replay.js"), (m) => html`<${m.ReplayPage} id=${match[1]} layoutFor=${layoutFor} />`];
  if (match) return [() => import("./game.js"), (m) => html`<${m.GamePage} id=${match[1]} token=${token} layoutFor=${layoutFor} />`];
  if (location.pathname === "/rules") return [() => import("./rules.js"), (m) => html`<${m.RulesPage} layoutFor=${layoutFor} />`];
  if (location.pathname === "/me") return [() => import("./progress.js"), (m) => html`<${m.ProgressPage} />`];
  return [() => import("./home.js"), (m) => html`<${m.HomePage} />`];
}

function App({ page }) {
  return html`<${Header} /><${Connection} /><main id="app">${page}</main>`;
}

async function start() {
  document.documentElement.lang = lang;
  const [load, draw] = route();
  const [strings, offered, module] = await Promise.all([api(`/api/strings?v=${version}`, { retry: true }),
    api(`/api/choices?v=${version}`, { retry: true }), load()]);
  setStrings(strings);
  setChoices(offered);
  render(html`<${App} page=${draw(module)} />`, document.getElementById("root"));
}

window.addEventListener("hashchange", () => location.reload());
start();
