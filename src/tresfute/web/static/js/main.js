// The page's entry: the language, the route (home, a game, a replay, a review, the rules, the
// player's progress) and the connection banner.
import { api, onConnection } from "./api.js";
import { GamePage } from "./game.js";
import { HomePage } from "./home.js";
import { html, render, useEffect, useState } from "./lib.js";
import { chooseLanguage, lang, setStrings, t } from "./i18n.js";
import { ProgressPage } from "./progress.js";
import { ReplayPage } from "./replay.js";
import { ReviewPage } from "./review.js";
import { RulesPage } from "./rules.js";

const layouts = new Map();
const layoutFor = (game) => {
  if (!layouts.has(game)) layouts.set(game, api(`/api/layout/${game}`, { retry: true }));
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
        <option value="fr">Français</option><option value="en">English</option>
      </select></label>
  </header>`;
}

function App() {
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  const query = new URLSearchParams(location.search);
  let page;
  if (match && query.has("review")) {
    page = html`<${ReviewPage} id=${match[1]} token=${token} player=${Number(query.get("review")) || null} layoutFor=${layoutFor} />`;
  } else if (match && query.has("replay")) page = html`<${ReplayPage} id=${match[1]} layoutFor=${layoutFor} />`;
  else if (match) page = html`<${GamePage} id=${match[1]} token=${token} layoutFor=${layoutFor} />`;
  else if (location.pathname === "/rules") page = html`<${RulesPage} layoutFor=${layoutFor} />`;
  else if (location.pathname === "/me") page = html`<${ProgressPage} />`;
  else page = html`<${HomePage} />`;
  return html`<${Header} /><${Connection} /><main id="app">${page}</main>`;
}

async function start() {
  document.documentElement.lang = lang;
  setStrings(await api("/api/strings", { retry: true }));
  render(html`<${App} />`, document.getElementById("root"));
}

window.addEventListener("hashchange", () => location.reload());
start();
