// tresfute in the browser: the home page and the game page. No rules here: the server sends
// the legal moves (with their words) and the page only offers those.

const $ = (selector, root = document) => root.querySelector(selector);
const STORE_KEY = "tresfute.games";
let lang = localStorage.getItem("tresfute.lang") || "fr";
let strings = {};

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : `{${k}}`));
const t = (text, values = {}) => fill(strings[text] || text, values);
// A message with a number: the server sends its two forms; French takes the singular for 0 and 1
// (its catalogue's rule, n > 1), English for 1 only; a negative score reads like its size.
const tn = (singular, plural, n, values = {}) => {
  const many = lang === "fr" ? Math.abs(n) > 1 : Math.abs(n) !== 1;
  const forms = Array.isArray(strings[singular]) ? strings[singular] : [singular, plural];
  return fill(forms[many ? 1 : 0], values);
};
// The server's instructions are phrases ("choose a die of the roll"): shown alone, each line is a sentence.
const sentences = (text) => text.split("\n").flatMap((line, i) => [i ? el("br") : null, line.charAt(0).toUpperCase() + line.slice(1)]);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function api(path, options = {}) {
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${sep}lang=${lang}`, {
    ...options,
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(body.error || `${response.status}`), { status: response.status });
  return body;
}

// --- games remembered by this browser ------------------------------------------------------

function remembered() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function remember(entry) {
  const games = remembered().filter((g) => !(g.id === entry.id && g.token === entry.token));
  const previous = remembered().find((g) => g.id === entry.id && g.token === entry.token) || {};
  games.unshift({ ...previous, ...entry });
  localStorage.setItem(STORE_KEY, JSON.stringify(games.slice(0, 50)));
}

// --- home ------------------------------------------------------------------------------------

const N_ = (text) => text; // marks a message translated later with t()
const BOT_CHOICES = [["", N_("Person")], ["strong", N_("Computer (strong)")], ["greedy", N_("Computer (greedy)")],
  ["random", N_("Computer (random)")]];

function seatRow(i) {
  const kind = el("select", { "aria-label": t("Seat {n}", { n: i + 1 }), class: "seat-kind", "data-seat": i },
    BOT_CHOICES.map(([v, label]) => el("option", { value: v }, t(label))));
  if (i > 0) kind.value = "strong";
  const name = el("input", { class: "seat-name", "aria-label": t("Name of seat {n}", { n: i + 1 }),
    value: i === 0 ? t("Me") : t("Player {n}", { n: i + 1 }), maxlength: 40 });
  return el("div", { class: "seat-row" }, el("span", {}, t("Seat {n}", { n: i + 1 })), kind, name);
}

function renderHome() {
  const app = $("#app");
  app.replaceChildren();
  const seats = el("div", { id: "seats" });
  const count = el("select", { id: "players", "aria-label": t("Players") },
    [1, 2, 3, 4].map((n) => el("option", { value: n }, String(n))));
  const showSeats = () => seats.replaceChildren(...Array.from({ length: +count.value }, (_, i) => seatRow(i)));
  count.addEventListener("change", showSeats);
  showSeats();
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { id: "new-game", class: "panel" },
    el("h2", {}, t("New game")),
    el("label", {}, t("Game"), " ", el("select", { id: "game-choice" },
      el("option", { value: "tres-fute" }, "Très futé"),
      el("option", { value: "vraiment-tres-fute" }, "Vraiment très futé"))),
    el("label", {}, t("Players"), " ", count),
    seats,
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "real-dice" }),
      " ", t("Real dice: we roll our own dice at the table and type them")),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "listed" }),
      " ", t("Open table: list it on the home page, the other people's seats free for anyone to take")),
    el("button", { type: "submit", id: "start" }, t("Start the game")),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seatsIn = [...seats.querySelectorAll(".seat-row")].map((row) => ({
      name: $(".seat-name", row).value.trim() || "?",
      bot: $(".seat-kind", row).value || null,
    }));
    try {
      const created = await api("/api/games", {
        method: "POST",
        body: JSON.stringify({ game: $("#game-choice").value, seats: seatsIn,
          real_dice: $("#real-dice").checked, language: lang, listed: $("#listed").checked }),
      });
      const mine = created.seats.find((s) => s.token);
      const invitations = created.seats.filter((s) => s.token && s !== mine)
        .map((s) => ({ name: s.name, link: location.origin + s.link }));
      remember({ id: created.id, token: mine.token, name: mine.name, game: $("#game-choice").value,
        invitations, created: Date.now() });
      location.assign(mine.link);
    } catch (e) {
      error.textContent = e.message;
    }
  });

  const joinInput = el("input", { id: "join-link", "aria-label": t("Invitation link"), placeholder: "https://…/g/…#seat=…" });
  const join = el("form", { id: "join", class: "panel" }, el("h2", {}, t("Join by link")), joinInput,
    el("button", { type: "submit" }, t("Join")));
  join.addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      const url = new URL(joinInput.value.trim(), location.origin);
      if (!url.pathname.startsWith("/g/")) throw new Error();
      location.assign(url.pathname + url.hash);
    } catch {
      joinInput.setCustomValidity(t("This is not a game link."));
      joinInput.reportValidity();
    }
  });

  const running = el("ul", { id: "my-games" });
  const finished = el("ul", { id: "finished-games" });
  app.append(challengePanel(), openTablesPanel(), form, join, el("section", { class: "panel" }, el("h2", {}, t("My games in progress")), running),
    el("section", { class: "panel" }, el("h2", {}, t("Finished games")), finished));
  for (const g of remembered()) {
    const link = `/g/${g.id}${g.token ? `#seat=${g.token}` : ""}`;
    api(`/api/games/${g.id}`, { headers: g.token ? { "X-Seat-Token": g.token } : {} }).then((view) => {
      const names = view.seats.map((s) => s.name).join(", ");
      const item = el("li", {}, el("a", { href: link }, `${view.game === "tres-fute" ? "Très futé" : "Vraiment très futé"} — ${names}`));
      if (view.over) {
        const scores = view.result.scores.map((s, i) => `${view.seats[i].name} ${s.total}`).join(" · ");
        item.append(" — ", scores);
        finished.append(item);
      } else {
        item.append(" — ", view.status);
        running.append(item);
      }
    }).catch(() => {});
  }
}

// --- open tables -----------------------------------------------------------------------------

function openTablesPanel() {
  const name = el("input", { id: "open-name", "aria-label": t("Your name at the table"), maxlength: 40,
    value: player().name || t("Me") });
  const list = el("ul", { id: "open-tables" });
  const error = el("p", { class: "error", role: "alert" });
  const panel = el("section", { class: "panel", id: "open" }, el("h2", {}, t("Open tables")),
    el("label", {}, t("Name"), " ", name), list, error);
  api("/api/open").then(({ games }) => {
    if (!games.length) list.replaceChildren(el("li", {}, t("No open table right now.")));
    else list.replaceChildren(...games.map((g) => el("li", { "data-game": g.id }, `${GAME_NAMES[g.game]} — `,
      g.seats.map((s) => (s.free ? t("free seat") : s.name)).join(", "), " ",
      el("button", { type: "button", class: "take-seat", onclick: () => takeSeat(g, name, error) }, t("Take a seat")))));
  }).catch(() => {});
  return panel;
}

async function takeSeat(g, nameInput, error) {
  try {
    const name = nameInput.value.trim();
    const joined = await api(`/api/games/${g.id}/join`, { method: "POST", body: JSON.stringify({ name }) });
    remember({ id: g.id, token: joined.token, name, game: g.game, created: Date.now() });
    location.assign(joined.link);
  } catch (e) {
    error.textContent = e.message;
  }
}

// --- the daily challenge ---------------------------------------------------------------------

const PLAYER_KEY = "tresfute.player"; // {token, name}: the token holds the player's name for the day
const GAME_NAMES = { "tres-fute": "Très futé", "vraiment-tres-fute": "Vraiment très futé" };

function player() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function playerHeaders() {
  const me = player();
  return me.token ? { "X-Player-Token": me.token } : {};
}

function challengePanel() {
  const name = el("input", { id: "challenge-name", "aria-label": t("Your name in the challenge"), maxlength: 40,
    value: player().name || "" });
  const error = el("p", { class: "error", role: "alert" });
  const boards = el("div", { id: "challenge-boards" });
  const history = el("ul", { id: "challenge-history" });
  const buttons = Object.entries(GAME_NAMES).map(([g, label]) => el("button",
    { type: "button", class: "challenge-start", "data-game": g, onclick: () => startChallenge(g, name, error) },
    t("Play today's {game}", { game: label })));
  const panel = el("section", { class: "panel", id: "challenge" }, el("h2", {}, t("Daily challenge")),
    el("p", {}, t("Every day, one solo game of each kind on the same dice for everyone: play it once, then compare.")),
    el("label", {}, t("Name"), " ", name), el("p", { class: "challenge-buttons" }, buttons), error, boards,
    el("h3", {}, t("My challenges")), history);
  for (const g of Object.keys(GAME_NAMES)) {
    const box = el("div", { class: "challenge-board", "data-game": g });
    boards.append(box);
    api(`/api/challenge/${g}`, { headers: playerHeaders() }).then((board) => {
      box.replaceChildren(...boardView(board));
      if (board.yesterday) {
        box.append(el("p", {}, el("small", {},
          t("Yesterday's seed ({day}): {secret}", { day: board.yesterday.day, secret: board.yesterday.secret }))));
      }
    }).catch(() => {});
  }
  if (player().token) {
    api("/api/challenge/history", { headers: playerHeaders() })
      .then(({ entries }) => history.replaceChildren(...entries.map(historyItem))).catch(() => {});
  }
  return panel;
}

async function startChallenge(g, nameInput, error) {
  const name = nameInput.value.trim();
  try {
    const created = await api(`/api/challenge/${g}`, { method: "POST", headers: playerHeaders(),
      body: JSON.stringify({ name }) });
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ token: created.player, name }));
    remember({ id: created.id, token: created.token, name, game: g, created: Date.now() });
    location.assign(created.link);
  } catch (e) {
    error.textContent = e.message;
  }
}

function boardView(board) {
  const items = board.entries.map((e) => el("li", {}, `${e.rank}. ${e.name} — ${e.score} `,
    el("a", { href: `/g/${e.id}?replay`, class: "replay-link" }, t("replay"))));
  return [
    el("h3", {}, `${GAME_NAMES[board.game]} — ${board.day}`),
    el("p", {}, el("small", {}, t("Published hash of the day's seed: {hash}", { hash: board.commitment }))),
    items.length ? el("ul", { class: "ranking" }, items) : el("p", {}, t("No finished game yet today.")),
    board.strong ? el("p", { class: "strong-player" },
      t("The strong computer player on the same dice: {score} (rank {rank})", board.strong)) : null,
  ];
}

function historyItem(e) {
  return el("li", {}, `${e.day} — ${GAME_NAMES[e.game]} — ${e.name} — ${e.score ?? t("in progress")} `,
    e.score !== null ? el("a", { href: `/g/${e.id}?replay` }, t("replay")) : null);
}

/* A finished game, move by move: the server replays its record up to the step asked for. */
async function renderReplay(id) {
  game.id = id;
  const load = async (step) => {
    const view = await api(`/api/games/${id}?at=${step}`, { headers: playerHeaders() });
    if (!game.layout) game.layout = await api(`/api/layout/${view.game}`);
    game.view = view;
    const button = (key, label, to) => el("button", { type: "button", id: `replay-${key}`, "aria-label": label,
      title: label, disabled: to === view.step, onclick: () => load(to).catch((e) => flash(e.message)) },
    { first: "⏮", previous: "◀", next: "▶", last: "⏭" }[key]);
    const nav = el("nav", { class: "replay", id: "replay" },
      button("first", t("First move"), 0), button("previous", t("Previous move"), Math.max(0, view.step - 1)),
      el("span", { id: "replay-step" }, t("Move {n} of {total}", { n: view.step, total: view.steps })),
      button("next", t("Next move"), Math.min(view.steps, view.step + 1)), button("last", t("Last move"), view.steps));
    $("#app").replaceChildren(nav, gameScreen(view));
  };
  await load(0).catch((e) => $("#app").replaceChildren(el("p", { class: "error", role: "alert" }, e.message)));
}

// --- the game page ---------------------------------------------------------------------------

const game = { id: null, token: null, layout: null, view: null, socket: null, selectedDie: null, message: "", busy: false };

/* One request at a time: a second click (a double click, or a click on a page redrawn by another
   player's move while ours is on its way) would carry the same seq and be refused as stale. */
async function oneAtATime(request) {
  if (game.busy) return;
  game.busy = true;
  $(".game")?.setAttribute("aria-busy", "true");
  try {
    await request();
  } catch (e) {
    if (e.status === 409) { // the game moved on (another page, another server): show it as it is now
      show(await api(`/api/games/${game.id}`, { headers: game.token ? { "X-Seat-Token": game.token } : {} }).catch(() => game.view));
    }
    flash(e.message);
  } finally {
    game.busy = false;
    $(".game")?.removeAttribute("aria-busy");
  }
}

async function renderGamePage(id) {
  game.id = id;
  const hash = new URLSearchParams(location.hash.slice(1));
  game.token = hash.get("seat");
  const view = await api(`/api/games/${id}`, { headers: game.token ? { "X-Seat-Token": game.token } : {} })
    .catch((e) => { $("#app").replaceChildren(el("p", { class: "error", role: "alert" }, e.message)); return null; });
  if (!view) return;
  if (game.token) remember({ id, token: game.token, name: view.seats[view.you].name, game: view.game });
  game.layout = await api(`/api/layout/${view.game}`);
  show(view);
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${game.id}/ws`);
  game.socket = socket;
  socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", token: game.token, lang })));
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") show(message.state);
    else if (message.type === "error") flash(message.error);
  });
  socket.addEventListener("close", () => {
    if (game.socket === socket) setTimeout(connect, 1500);
  });
}

function flash(text) {
  game.message = text;
  const box = $("#message");
  if (box) box.textContent = text;
}

function send(move) {
  return oneAtATime(async () => {
    const view = await api(`/api/games/${game.id}/act`, {
      method: "POST", headers: { "X-Seat-Token": game.token },
      body: JSON.stringify({ move, seq: game.view.seq }),
    });
    game.selectedDie = null;
    game.message = "";
    show(view);
  });
}

function undo() {
  return oneAtATime(async () => {
    show(await api(`/api/games/${game.id}/undo`, {
      method: "POST", headers: { "X-Seat-Token": game.token }, body: JSON.stringify({ seq: game.view.seq }),
    }));
    flash(t("Undone."));
  });
}

async function hint() {
  flash(t("Thinking…"));
  try {
    const { moves } = await api(`/api/games/${game.id}/hint`, { method: "POST", headers: { "X-Seat-Token": game.token } });
    const best = moves[0];
    const box = $("#hint");
    box.replaceChildren(el("p", {}, t("Hint: {move} (expected final score {value}).", { move: best.label, value: Math.round(best.value) })),
      el("ol", {}, moves.slice(0, 5).map((m) => el("li", {}, `${m.label} — ${m.value}` + (m.cost ? ` (−${m.cost})` : "")))));
    flash("");
  } catch (e) {
    flash(e.message);
  }
}

/* A daily challenge's record is kept from spectators until the day is over: the page asks for
   it with the seat's (or the player's) token, which a plain link cannot carry. */
async function downloadRecord(event, view) {
  event.preventDefault();
  try {
    const response = await fetch(`/api/games/${view.id}/record?lang=${lang}`,
      { headers: { ...playerHeaders(), ...(game.token ? { "X-Seat-Token": game.token } : {}) } });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || `${response.status}`);
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: `tresfute-${view.id}.json` });
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (e) {
    flash(e.message);
  }
}

function show(view) {
  if (game.view && view.revision < game.view.revision) return; // an update older than the one shown
  game.view = view;
  const app = $("#app");
  const focused = document.activeElement && document.activeElement.dataset.key;
  app.replaceChildren(gameScreen(view));
  if (focused) {
    const again = app.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

function gameScreen(view) {
  const state = view.state;
  const me = view.you;
  const legal = view.legal || [];
  const status = el("div", { class: "status", id: "status" },
    el("strong", {}, `${game.layout.name} — ${t("Round {n} of {total}", { n: state.round, total: state.rounds })}`),
    " ", el("span", { id: "status-text" }, view.status),
    view.prompt ? el("p", { id: "prompt" }, sentences(view.prompt)) : null,
    pendingList(view));
  const screen = el("div", { class: "game", "data-revision": view.revision, "data-over": view.over, "aria-busy": game.busy ? "true" : null }, status, el("p", { id: "message", role: "status" }, game.message));
  screen.append(diceView(view));
  if (view.over) {
    // nothing left to decide: the breakdown follows
  } else if (me !== null && me !== undefined) {
    if (legal.length || view.can_undo) screen.append(controls(view, legal));
    if (view.dice_to_roll && view.dice_to_roll.length) screen.append(diceForm(view));
  } else {
    screen.append(el("p", { class: "spectator" }, t("You are watching this game.")));
  }
  if (view.over) screen.append(endOfGame(view));
  const sheets = el("div", { class: "sheets" });
  const order = me === null || me === undefined ? view.seats.map((_, i) => i) : [me, ...view.seats.map((_, i) => i).filter((i) => i !== me)];
  for (const i of order) sheets.append(sheetView(view, i, i === me ? legal : [], i === me || view.seats.length === 1 ? "" : "small"));
  screen.append(sheets, logView(view));
  const invited = invitations(view);
  if (invited) screen.append(invited);
  return screen;
}

function pendingList(view) {
  const mine = view.you !== null && view.you !== undefined ? view.pending[view.you] : [];
  if (!mine || !mine.length) return null;
  return el("ul", { class: "pending", id: "pending" }, mine.map((p) => el("li", {}, t("Bonus: {bonus} — {source}", p))));
}

const DIE_SYMBOL = { w: "◻", s: "◇", y: "△", b: "○", g: "◁", o: "▷", p: "☆", k: "♡" };

function dieBox(letter, value, extra = {}) {
  const name = game.layout.dice.find((d) => d.letter === letter).name;
  return el(extra.onclick ? "button" : "span", { class: `die die-${letter} ${extra.class || ""}`, title: name,
    "aria-label": `${name} ${value || "?"}`, "data-key": extra.key, onclick: extra.onclick, type: extra.onclick ? "button" : null },
  el("span", { class: "die-symbol", "aria-hidden": "true" }, DIE_SYMBOL[letter]), el("b", {}, value || "?"),
  el("small", {}, name));
}

function diceView(view) {
  const state = view.state;
  const legalDice = new Set((view.legal || []).filter((m) => m.kind === "pick" || m.kind === "extra").map((m) => m.die));
  const group = (where, title) => {
    let dice = state.dice.filter((d) => d.where === where);
    if (where === "field") dice = dice.sort((a, b) => a.field - b.field);
    return el("div", { class: `dice-group dice-${where}` }, el("h3", {}, title),
      dice.length ? dice.map((d) => dieBox(d.die, d.value, {
        key: `die-${d.die}`,
        class: `${game.selectedDie === d.die ? "selected" : ""} ${legalDice.has(d.die) ? "playable" : ""}`,
        onclick: legalDice.has(d.die) ? () => { game.selectedDie = game.selectedDie === d.die ? null : d.die; show(game.view); } : null,
      })) : el("span", { class: "empty" }, "—"));
  };
  return el("div", { class: "dice", id: "dice" },
    group("hand", state.solo_passive_turn ? t("Other dice") : t("Roll")),
    group("platter", t("Silver platter")), group("field", t("Die fields")));
}

function controls(view, legal) {
  const box = el("div", { class: "controls" });
  const moves = el("div", { class: "moves", id: "moves", role: "group", "aria-label": t("Your legal moves") });
  for (const m of legal) {
    moves.append(el("button", { type: "button", class: `move move-${m.kind}`, "data-move": m.move, "data-key": `move-${m.move}`,
      onclick: () => send(m.move) }, m.label));
  }
  box.append(moves);
  const tools = el("div", { class: "tools" });
  if (view.can_undo) tools.append(el("button", { type: "button", id: "undo", "data-key": "undo", onclick: undo }, t("Undo")));
  if (legal.length > 1 && legal[0].kind !== "roll") {
    tools.append(el("button", { type: "button", id: "hint-button", "data-key": "hint", onclick: hint }, t("Hint")));
  }
  box.append(tools, el("div", { id: "hint" }));
  return box;
}

function diceForm(view) {
  const inputs = view.dice_to_roll.map((d) => el("label", { class: `die-input die-${d}` },
    game.layout.dice.find((x) => x.letter === d).name, " ",
    el("input", { type: "number", min: 1, max: 6, required: true, "data-die": d, inputmode: "numeric", size: 2 }),
    view.solo_roll ? el("label", { class: "check" }, el("input", { type: "checkbox", "data-platter": d }), " ", t("platter")) : null));
  const form = el("form", { id: "dice-form", class: "panel" }, el("h3", {}, t("Dice rolled")), inputs,
    el("button", { type: "submit" }, t("Enter the dice")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = [...form.querySelectorAll("input[data-die]")].map((i) => `${i.dataset.die}${i.value}`);
    const platter = [...form.querySelectorAll("input[data-platter]:checked")].map((i) => i.dataset.platter).join("");
    send(`dice ${values.join(" ")}${platter ? ` platter=${platter}` : ""}`);
  });
  return form;
}

// --- sheets ----------------------------------------------------------------------------------

function targetsOf(legal) {
  const targets = new Map();
  for (const m of legal) {
    if (!m.area || m.kind === "reprise") continue;
    if (game.selectedDie && m.die && m.die !== game.selectedDie) continue;
    const key = `${m.area}:${m.cell ? m.cell.join(",") : "next"}`;
    if (!targets.has(key)) targets.set(key, []);
    targets.get(key).push(m);
  }
  return targets;
}

function choose(moves) {
  if (moves.length === 1) return send(moves[0].move);
  const box = $("#hint");
  box.replaceChildren(el("div", { class: "chooser", role: "group", "aria-label": t("Choose") },
    moves.map((m) => el("button", { type: "button", "data-move": m.move, onclick: () => send(m.move) }, m.label))));
  const first = box.querySelector("button");
  if (first) first.focus();
}

function sheetView(view, player, legal, size) {
  const sheet = view.state.sheets[player];
  const targets = targetsOf(legal);
  const seat = view.seats[player];
  const box = el("section", { class: `sheet ${size}`, "data-player": player, "aria-label": t("Sheet of {name}", { name: seat.name }) },
    el("h2", {}, seat.name, seat.bot_label ? ` (${seat.bot_label})` : "", seat.deciding ? el("span", { class: "deciding" }, ` — ${t("deciding")}`) : "",
      el("span", { class: "total" }, ` ${t("Total: {total}", { total: sheet.score.total })}`)));
  for (const area of game.layout.areas) {
    const values = sheet.areas[area.letter];
    const points = sheet.score.areas[area.letter];
    const part = el("div", { class: `area area-${area.letter}` },
      el("h3", {}, el("span", { class: "swatch", "aria-hidden": "true" }, DIE_SYMBOL[area.letter]), ` ${area.name} `,
        el("span", { class: "points" }, tn("{n} point", "{n} points", points, { n: points }))));
    part.append(area.kind === "grid" ? gridView(area, values, targets) : trackView(area, values, targets));
    box.append(part);
  }
  box.append(actionsView(sheet), roundsView(view), el("p", { class: "foxes" },
    `${t("Foxes: {n} × {value} = {points}", { n: sheet.score.foxes, value: sheet.score.fox_value, points: sheet.score.foxes * sheet.score.fox_value })}`));
  return box;
}

function gridView(area, values, targets) {
  const table = el("table", { class: "grid" });
  const byCell = new Map(values.map((c) => [`${c.row},${c.col}`, c]));
  area.cells.forEach((row, r) => {
    const tr = el("tr", {});
    if (area.row_colours.length) tr.append(el("th", { class: `row-colour area-${area.row_colours[r]}` }, DIE_SYMBOL[area.row_colours[r]]));
    row.forEach((value, c) => {
      if (value === null) {
        tr.append(el("td", { class: "printed", "aria-hidden": "true" }, game.layout.game === "tres-fute" ? "▒" : ""));
        return;
      }
      const cell = byCell.get(`${r + 1},${c + 1}`);
      const moves = targets.get(`${area.letter}:${r + 1},${c + 1}`);
      const mark = cell.marks >= area.marks ? (area.marks === 2 ? "⊗" : "✗") : cell.marks === 1 ? "◯" : "";
      const content = [el("span", { class: "value" }, value), mark ? el("span", { class: "mark" }, mark) : null];
      const label = `${area.name} ${t("row {r}, column {c}", { r: r + 1, c: c + 1 })}: ${value}${mark ? ` ${mark}` : ""}`;
      tr.append(el("td", { class: `cell ${mark ? "marked" : ""}` }, moves
        ? el("button", { type: "button", class: "target", "data-key": `${area.letter}-${r + 1}-${c + 1}`, "data-target": `${area.letter}@r${r + 1}c${c + 1}`,
          "aria-label": label, onclick: () => choose(moves) }, content)
        : el("span", { "aria-label": label }, content)));
    });
    const bonus = area.row_bonuses[r];
    tr.append(el("td", { class: "row-bonus", title: bonus ? bonus.name : "" }, bonus ? `→ ${bonus.label}` : ""));
    table.append(tr);
  });
  if (area.column_feet.some((f) => f)) {
    table.append(el("tr", { class: "feet" }, area.row_colours.length ? el("td", {}) : null,
      area.column_feet.map((f) => el("td", { title: f ? f.name : "" }, f ? `↓ ${f.label}` : ""))));
  }
  const notes = [];
  if (area.diagonal) notes.push(el("p", { class: "note" }, `↘ ${t("diagonal: {bonus}", { bonus: area.diagonal.name })}`));
  if (area.count_points.length) notes.push(el("p", { class: "note" }, `${area.count_per_row ? t("points per row by crosses") : t("points by crosses")}: ${area.count_points[0].join(" ")}`));
  return el("div", {}, table, notes);
}

function trackView(area, values, targets) {
  const row = el("ol", { class: "track" });
  area.boxes.forEach((box, i) => {
    const filled = i < values.length;
    const moves = i === values.length ? targets.get(`${area.letter}:next`) : null;
    const content = filled ? (area.crosses ? "✗" : String(values[i])) : "";
    const heads = [box.multiplier !== 1 ? `×${box.multiplier}` : "", box.minimum !== 1 ? `≥${box.minimum}` : ""].filter(Boolean).join(" ");
    const label = `${area.name} ${t("box {n}", { n: i + 1 })}${heads ? ` (${heads})` : ""}: ${content || t("empty")}`;
    const inner = [el("span", { class: "head" }, heads), el("span", { class: "content" }, content),
      el("span", { class: `bonus ${filled ? "used" : ""}`, title: box.bonus ? box.bonus.name : "" },
        box.bonus ? `${box.bonus.label}${box.bonus_minimum > 1 ? ` ≥${box.bonus_minimum}` : ""}` : "")];
    row.append(el("li", { class: `box ${filled ? "filled" : ""}` }, moves
      ? el("button", { type: "button", class: "target", "data-key": `${area.letter}-next`, "data-target": `${area.letter}@next`, "aria-label": label, onclick: () => choose(moves) }, inner)
      : el("span", { "aria-label": label }, inner)));
  });
  const notes = area.points.length ? el("p", { class: "note" }, `${t("points by boxes filled")}: ${area.points.join(" ")}`) : null;
  return el("div", {}, row, notes);
}

function actionsView(sheet) {
  return el("div", { class: "actions" }, game.layout.actions.map((track) => {
    const a = sheet.actions[track.action] || { earned: 0, used: 0 };
    const circles = "⊗".repeat(a.used) + "●".repeat(a.earned - a.used) + "○".repeat(Math.max(0, track.circles - a.earned));
    return el("p", {}, `${track.symbol} ${track.name}: `, el("span", { class: "circles" }, circles),
      track.end_bonus ? ` → ${track.end_bonus.label}` : "", ` ${t("({n} left)", { n: a.earned - a.used })}`);
  }));
}

function roundsView(view) {
  const state = view.state;
  return el("ol", { class: "rounds", "aria-label": t("Rounds") }, Array.from({ length: state.rounds }, (_, i) => {
    const gift = game.layout.round_gifts[i];
    const cls = i + 1 < state.round ? "past" : i + 1 === state.round ? "current" : "";
    return el("li", { class: cls, title: gift ? gift.name : "" }, `${i + 1}${gift ? ` ${gift.label}` : ""}`);
  }));
}

function logView(view) {
  return el("details", { class: "log" }, el("summary", {}, t("Last moves")), el("ol", {}, view.log.map((line) => el("li", {}, line))));
}

function invitations(view) {
  const entry = remembered().find((g) => g.id === view.id && g.token === game.token);
  if (!entry || !entry.invitations || !entry.invitations.length || view.over) return null;
  return el("section", { class: "panel invitations" }, el("h3", {}, t("Invitation links")),
    el("p", {}, t("Send each person their own link; anyone with this page's address without #seat can watch.")),
    el("ul", {}, entry.invitations.map((inv) => el("li", {}, `${inv.name}: `, el("input", { readonly: true, value: inv.link, size: 40, onclick: (e) => e.target.select() })))),
    el("p", {}, t("Watch link"), ": ", el("code", {}, `${location.origin}/g/${view.id}`)));
}

function endOfGame(view) {
  const result = view.result;
  const rows = view.seats.map((seat, i) => {
    const s = result.scores[i];
    return el("tr", { class: result.winners.includes(i) ? "winner" : "" }, el("th", {}, seat.name + (result.winners.includes(i) ? ` — ${t("winner")}` : "")),
      game.layout.areas.map((a) => el("td", {}, s.areas[a.letter])), el("td", {}, `${s.foxes} × ${s.fox_value}`), el("td", {}, el("b", {}, s.total)));
  });
  const rating = result.rating ? el("p", { class: "rating" }, `${"★".repeat(result.rating.stars || 0)} ${result.rating[lang]}`) : null;
  const verdict = el("p", { id: "verify-result", role: "status" });
  return el("section", { class: "panel end", id: "end" }, el("h2", {}, t("End of the game")),
    el("table", { class: "breakdown" }, el("tr", {}, el("th", {}, ""), game.layout.areas.map((a) => el("th", {}, a.name)), el("th", {}, t("Foxes")), el("th", {}, t("Total"))), rows),
    rating,
    el("p", {}, el("a", { href: `/api/games/${view.id}/record`, download: `tresfute-${view.id}.json`, id: "record-link",
      onclick: view.challenge ? (event) => downloadRecord(event, view) : null }, t("Download the game record"))),
    view.secret ? el("p", {}, el("button", { type: "button", id: "verify", onclick: () => verify(view, verdict) }, t("Check the dice")),
      " ", el("small", {}, t("Published hash: {hash}", { hash: view.commitment }))) : null,
    verdict);
}

// The dice check, the same derivation as tresfute.fair_dice (see docs/web.md).
function word(text) {
  const bytes = sha256.array(text);
  return ((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3];
}

function dieValue(secret, roll, die) {
  for (let j = 0; ; j++) {
    const x = word(`${secret}:${roll}:${die}:${j}`);
    if (x < 4294967292) return (x % 6) + 1;
  }
}

async function verify(view, out) {
  if (sha256(view.secret) !== view.commitment) {
    out.textContent = t("The revealed secret does not match the published hash!");
    return;
  }
  const record = await api(`/api/games/${view.id}/record`);
  let roll = 0;
  const problems = [];
  for (const entry of record.moves) {
    if (!entry.startsWith("dice ")) continue;
    roll += 1;
    const [diceText, platterText] = entry.slice(5).split(" platter=");
    const dice = diceText.split(" ").map((d) => [d[0], +d.slice(1)]);
    for (const [d, v] of dice) if (dieValue(view.secret, roll, d) !== v) problems.push(`${roll}: ${d}${v}`);
    if (platterText) {
      const lowest = dice.map(([d, v]) => [d, v, word(`${view.secret}:${roll}:${d}:platter`)])
        .sort((a, b) => a[1] - b[1] || a[2] - b[2]).slice(0, 3).map((x) => x[0]);
      if ([...platterText].sort().join("") !== lowest.sort().join("")) problems.push(`${roll}: platter=${platterText}`);
    }
  }
  out.textContent = problems.length ? t("Rolls that do not match: {rolls}", { rolls: problems.join(", ") })
    : t("All {n} rolls match the secret seed.", { n: roll });
}

// --- start -----------------------------------------------------------------------------------

async function start() {
  strings = await api("/api/strings");
  document.documentElement.lang = lang;
  $("#language").value = lang;
  $("#language-label").textContent = t("Language");
  $("#language").onchange = (event) => {
    localStorage.setItem("tresfute.lang", event.target.value);
    location.reload();
  };
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  if (match && new URLSearchParams(location.search).has("replay")) await renderReplay(match[1]);
  else if (match) await renderGamePage(match[1]);
  else renderHome();
}

start();
