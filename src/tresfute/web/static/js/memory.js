// What this browser keeps: the games it plays (their seat's secret link), the player's secret
// (the games they make, join or enter are theirs: their progress page, /me) and name, the
// guide's progress in guided games. Nothing else leaves the server.
import { api } from "./api.js";

const GAMES = "tresfute.games";
const PLAYER = "tresfute.player";

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

export function remembered() {
  const games = read(GAMES, []);
  return Array.isArray(games) ? games.filter((g) => g && typeof g.id === "string") : [];
}

export function remember(entry) {
  const others = remembered().filter((g) => !(g.id === entry.id && g.token === entry.token));
  const previous = remembered().find((g) => g.id === entry.id && g.token === entry.token) || {};
  localStorage.setItem(GAMES, JSON.stringify([{ ...previous, ...entry, seen: Date.now() }, ...others].slice(0, 50)));
}

export const gameLink = (g) => `/g/${g.id}${g.token ? `#seat=${g.token}` : ""}`;

export function player() {
  const me = read(PLAYER, {});
  return me && typeof me === "object" ? me : {};
}

export const setPlayer = (token, name) => localStorage.setItem(PLAYER, JSON.stringify({ token, name }));
export const playerHeaders = () => (player().token ? { "X-Player-Token": player().token } : {});
export const forgetPlayer = () => localStorage.removeItem(PLAYER);
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/** The player's secret, asked of the server the first time it is needed. */
export async function ensurePlayer(name) {
  const me = player();
  if (me.token) return me.token;
  const made = await api("/api/players", { method: "POST", body: { name: (name || "").trim() || "?" } });
  setPlayer(made.token, made.name);
  return made.token;
}

/** ``request(headers)`` as the player; a secret the server does not know (its games' database was
 * renewed: 403) is replaced by a new one, once. */
export async function asPlayer(name, request) {
  try {
    return await request({ "X-Player-Token": await ensurePlayer(name) });
  } catch (e) {
    if (e.status !== 403) throw e;
    forgetPlayer();
    return request({ "X-Player-Token": await ensurePlayer(name) });
  }
}

/** The link that moves the player to another device (the secret stays after the #: no server log has it). */
export const playerLink = (token) => `${location.origin}/me#player=${token}`;

// The guided games: per game, whether the guide is on and the steps it has explained.
const GUIDE = "tresfute.guide";

export function guideOf(id) {
  const all = read(GUIDE, {});
  const entry = all && typeof all === "object" ? all[id] : null;
  return entry && typeof entry === "object" ? { on: Boolean(entry.on), seen: Array.isArray(entry.seen) ? entry.seen : [] } : null;
}

export function setGuide(id, entry) {
  const all = read(GUIDE, {});
  const kept = Object.entries(all && typeof all === "object" ? all : {}).filter(([key]) => key !== id).slice(-49);
  localStorage.setItem(GUIDE, JSON.stringify(Object.fromEntries([...kept, [id, entry]])));
}
