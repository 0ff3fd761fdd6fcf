// Requests to the server. A request that cannot reach the server, or that the server asks to
// try again (502-504: a proxy without its server; 503: the database is away), is retried by
// itself while the page shows "reconnecting…"; a move is sent again with the same sequence
// number, so the server plays it once (a repeat is refused as already played).
import { lang, sentence, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const watchers = new Set();
export const connection = { lost: false };

export function onConnection(watcher) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** ``lost``: false, or the sentence to show while the page tries again. */
export function setLost(lost) {
  if (connection.lost === lost) return;
  connection.lost = lost;
  for (const watcher of watchers) watcher(lost);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const RETRY = new Set([502, 503, 504]);

/** ``retry``: keep trying until the server answers (moves, the game's state); else one try. */
export async function api(path, { method = "GET", body, headers = {}, retry = false } = {}) {
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${lang}`;
  for (let attempt = 0; ; attempt += 1) {
    let response = null;
    try {
      response = await fetch(url, {
        method,
        headers: { "Content-Type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      response = null; // the server cannot be reached
    }
    if (response === null || RETRY.has(response.status)) {
      // the server's own sentence when it says to try again (the database away), else ours
      const said = response && (await response.json().catch(() => null));
      const why = said && typeof said.error === "string" ? said.error : null;
      if (!retry) {
        throw new ApiError(why || t("The server cannot be reached: check the connection and try again."), response ? response.status : 0);
      }
      setLost(why ? t("{reason} — trying again…", { reason: sentence(why) }) : t("Connection to the server lost: reconnecting…"));
      await sleep(Math.min(4000, 400 * 2 ** attempt));
      continue;
    }
    setLost(false);
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const message = data && typeof data.error === "string" ? data.error : t("The server refused the request.");
      throw Object.assign(new ApiError(message, response.status), { retried: attempt > 0 });
    }
    return data;
  }
}

export const seatHeaders = (token) => (token ? { "X-Seat-Token": token } : {});
