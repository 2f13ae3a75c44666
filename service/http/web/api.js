// The JSON API from the browser: relative URLs (so the client works behind a path prefix),
// problem details turned into plain words, an Idempotency-Key on every change, retried with the
// same key after a network failure or a 503/429.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `The server answered ${status}.`);
    this.status = status;
    this.code = problem.code || "error";
    this.problem = problem;
  }
}

export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(response) {
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, typeof body === "object" ? body : { detail: body });
  return body;
}

// One request; `token` goes in the Authorization header (never in a URL).
export async function request(method, path, { token, body, key, params, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  const query = params ? "?" + new URLSearchParams(params).toString() : "";
  const init = { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) };
  if (method === "GET" || !key) return answer(await fetch(path + query, init));
  for (let attempt = 0; ; attempt++) {  // a change with a key: the same key on every retry
    let response;
    try {
      response = await fetch(path + query, init);
    } catch (error) {
      if (attempt >= 5 || error.name === "AbortError") throw error;
      await sleep(200 * 2 ** attempt);
      continue;
    }
    const wait = Number(response.headers.get("retry-after") || 1);
    if ((response.status === 503 || response.status === 429) && attempt < 5 && wait <= 5) {
      await sleep(1000 * wait);  // a longer wait (a quota) is said to the person instead
      continue;
    }
    return answer(response);
  }
}

export const get = (path, options) => request("GET", path, options);
export const change = (method, path, options = {}) => request(method, path, { key: newKey(), ...options });

// The lobby answers a list (API 1.x) or {games, next} (2.0).
export const gamesOf = (body) => (Array.isArray(body) ? body : body.games || []);

// Every event of a game: a list (1.x) or pages of {events, next} (2.0), followed to the end.
export async function allEvents(game, token) {
  let params = { after: "0" };
  const events = [];
  for (;;) {
    const body = await get(`games/${game}/events`, { token, params });
    const page = Array.isArray(body) ? body : body.events || [];
    events.push(...page);
    if (Array.isArray(body) || body.next == null || !page.length) return events;
    params = { after: String(body.next) };  // the cursor: the version to read after
  }
}

// Tokens kept in the browser: games[id] = {admin, seats: {seat: token}, invites: [{seat, code}]}.
const STORE = "pantheon.games";
export function saved() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}
export function remember(game, patch) {
  const all = saved();
  const entry = all[game] || { seats: {} };
  all[game] = { ...entry, ...patch, seats: { ...entry.seats, ...(patch.seats || {}) }, at: Date.now() };
  localStorage.setItem(STORE, JSON.stringify(all));
  return all[game];
}
export function mySeat(game) {  // [seat, token] of the first seat held here, or [null, null]
  const entry = saved()[game];
  const seats = entry ? Object.entries(entry.seats || {}) : [];
  return seats.length ? [Number(seats[0][0]), seats[0][1]] : [null, null];
}
export const adminToken = (game) => (saved()[game] || {}).admin || null;

// Server-Sent Events read with fetch() (EventSource cannot send the Authorization header),
// resumed after a drop with Last-Event-ID. Calls onEvent(event) for each; stops when `signal`
// aborts or the game has ended (the server closes a finished game's stream). A connection
// silent for longer than the server's keep-alive, or one open when the network comes back, is
// given up and opened again; `onEvent(null)` then says that events may have been missed.
// `onEvent(null, version)` says that the events sent after `version` were lost (a failover) and
// others replaced them: what was shown after `version` is no longer true.
const SILENCE_MS = 20000;  // the server sends a keep-alive comment after 15 s without an event

export async function follow(game, token, after, onEvent, signal, isOver) {
  let last = after;
  let delay = 250;
  while (!signal.aborted && !isOver()) {
    const connection = new AbortController();
    const drop = () => connection.abort();
    signal.addEventListener("abort", drop);
    window.addEventListener("online", drop);
    let watchdog = setTimeout(drop, SILENCE_MS);
    try {
      const headers = { Accept: "text/event-stream" };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (last) headers["Last-Event-ID"] = String(last);
      const response = await fetch(`games/${game}/stream`, { headers, signal: connection.signal });
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
      if (delay !== 250 || last !== after) onEvent(null);  // opened again: catch up with what was missed
      delay = 250;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        clearTimeout(watchdog);
        watchdog = setTimeout(drop, SILENCE_MS);
        buffer += value.replace(/\r\n/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
          const id = frame.split("\n").find((l) => l.startsWith("id:"));
          if (id) last = Number(id.slice(3).trim());
          if (frame.split("\n").includes("event: reset")) {
            // events after `last` were lost in a failover and replaced: read everything again
            onEvent(null, last);
          } else if (data.length) onEvent(JSON.parse(data.join("\n")));
        }
      }
    } catch (error) {
      if (signal.aborted) return;
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener("abort", drop);
      window.removeEventListener("online", drop);
    }
    if (!signal.aborted && !isOver()) {
      await sleep(delay);
      delay = Math.min(delay * 2, 2000);
    }
  }
}
