// The lobby (games to join, watch or replay, with filters) and the new-game form.

import { markWaiting } from "./alerts.js";
import { change, gamesOf, get, remember, saved } from "./api.js";
import { seatName } from "./board.js";
import { clockChoice, clockOf } from "./clock.js";
import { h, problemText } from "./dom.js";
import { KINDS, kindTitle } from "./kinds.js";
import { glossary, rulesLink } from "./glossary.js";
import { nameInput, rememberName } from "./names.js";

const STATUSES = [["", "Not ended"], ["open", "Open seats"], ["playing", "In progress"], ["finished", "Finished"]];

export async function lobbyPage(root, query) {
  const status = query.get("status") || "";
  const kind = query.get("kind") || "";
  const message = h("p", { class: "message", role: "alert" });
  const filter = h("form", { class: "filters", "aria-label": "Filters", onchange: (event) => {
    const form = event.currentTarget;
    const params = new URLSearchParams();
    if (form.status.value) params.set("status", form.status.value);
    if (form.kind.value) params.set("kind", form.kind.value);
    location.hash = `#/lobby?${params}`;
  }, onsubmit: (event) => event.preventDefault() },
  h("label", {}, "Status ", h("select", { name: "status" }, STATUSES.map(([v, t]) => h("option", { value: v, selected: v === status }, t)))),
  " ",
  h("label", {}, "Game ", h("select", { name: "kind" }, h("option", { value: "" }, "All"),
    KINDS.map((k) => h("option", { value: k, selected: kind === k }, kindTitle(k))))));
  const table = h("div", {}, "Loading…");
  const name = nameInput({ id: "lobby-name" });
  root.replaceChildren(h("h1", {}, "Lobby"), filter,
    h("p", {}, h("label", { for: "lobby-name" }, "Your name when you join (optional) "), name), message, table, myGames());
  const shown = [];
  // a page of the lobby: a list (API 1.x), or {games, next} whose `next` is the following page's cursor (2.0)
  async function more(cursor) {
    const params = { ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
    const body = await get("games", { params: Object.keys(params).length ? params : undefined });
    shown.push(...gamesOf(body).filter((g) => !kind || g.kind === kind));
    const next = Array.isArray(body) ? null : body.next;
    table.replaceChildren(shown.length ? gamesTable(shown, message) : h("p", {}, "No game here yet: start one with “New game”."),
      next ? h("button", { type: "button", onclick: () => more(next).catch(fail) }, "More games") : "");
  }
  const fail = (error) => { message.textContent = problemText(error); };
  try { await more(null); } catch (error) { table.replaceChildren(); fail(error); }
}

function gamesTable(games, message) {
  return h("table", { class: "lobby" },
    h("caption", {}, "Games"),
    h("thead", {}, h("tr", {}, ["Game", "Players", "Status", "Events", "Created", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, games.map((g) => h("tr", { "data-game": g.game },
      h("td", {}, h("a", { href: `#/game/${g.game}` }, g.game), g.lineage ? ` (fork of ${g.lineage.parent})` : ""),
      h("td", {}, `${g.players} · ${kindTitle(g.kind)}`), h("td", {}, g.status), h("td", {}, g.version),
      h("td", {}, new Date(g.created_at).toLocaleString()),
      h("td", {}, actions(g, message))))));
}

function actions(g, message) {
  if (g.status === "finished") {
    return [h("a", { href: `#/replay/${g.game}` }, "Replay"), " ", h("a", { href: `#/audit/${g.game}` }, "Audit")];
  }
  const joins = (g.open_seats || []).map((seat) => h("button", { type: "button", onclick: () => join(g.game, seat, message, undefined,
    document.getElementById("lobby-name").value) },
    `Join as ${seatName(seat)}`));
  return [...joins, " ", h("a", { href: `#/game/${g.game}` }, "Watch")];
}

export async function join(game, seat, message, invite, name) {
  const body = { ...(invite ? { invite } : {}), ...(name && name.trim() ? { name } : {}) };
  try {
    const claimed = await change("POST", `games/${game}/seats/${seat}/claim`, { body: Object.keys(body).length ? body : undefined });
    remember(game, { seats: { [claimed.seat]: claimed.token } });
    rememberName(claimed.name);
    location.hash = `#/game/${game}`;
  } catch (error) { message.textContent = claimWords(error, seat); }
}

// A claim refused, in words that say what to do; a seat named as on the page ("Player B").
function claimWords(error, seat) {
  const label = `Player ${String.fromCharCode(65 + seat)}`;
  if (error.code === "seat_taken") {
    return `${label}'s seat has already been taken. If it is yours and this browser lost it (or you opened the invite `
      + `on another device), ask the game's admin (whoever created the game) to open the game and press “Re-issue `
      + `${label}'s invite” under Seats, then open the new invite link they send you.`;
  }
  if (error.code === "wrong_invite") {
    return `This invite link for ${label} no longer works: it was used already, or the admin made a new one. Ask the `
      + `game's admin to press “Re-issue ${label}'s invite” on the game page and send you the new link.`;
  }
  return problemText(error);
}

// The page an invite link opens: your name (optional), then Join.
export function joinPage(root, game, seat, invite) {
  const message = h("p", { class: "message", role: "alert" });
  const name = nameInput({ id: "join-name" });
  const form = h("form", { class: "join" }, h("p", {}, `You are invited to play ${`Player ${String.fromCharCode(65 + seat)}`} in game ${game}.`),
    h("p", {}, h("label", { for: "join-name" }, "Your name (optional) "), name), h("button", { type: "submit" }, "Join the game"));
  form.addEventListener("submit", (event) => { event.preventDefault(); join(game, seat, message, invite, name.value); });
  root.replaceChildren(h("h1", {}, "Joining a game"), form, message);
}

function myGames() {
  const entries = Object.entries(saved()).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 20);
  if (!entries.length) return h("div");
  const items = new Map(entries.map(([game, e]) => [game, h("li", { "data-game": game }, h("a", { href: `#/game/${game}` }, game),
    ` · ${Object.keys(e.seats || {}).map((s) => seatName(Number(s))).join(", ") || "admin"}`)]));
  markWaiting(entries, items);  // the games waiting for you, marked as their status arrives
  return h("section", { "aria-label": "Your games" }, h("h2", {}, "Your games (kept in this browser)"), h("ul", {}, [...items.values()]));
}

// What the API says a new game may have: the game kinds (one create request each, the default
// first), each with its numbers of players (its seats' minItems to maxItems), its options (and
// defaults), and the AI levels.
let schemaPromise = null;
async function gameSchema() {
  schemaPromise ||= get("schema/openapi.json").then((doc) => {
    const schemas = doc.components.schemas;
    const deref = (s) => (s && s.$ref ? schemas[s.$ref.split("/").pop()] : s);
    const body = ((((doc.paths["/games"] || {}).post || {}).requestBody || {}).content || {})["application/json"] || {};
    const requests = (deref(body.schema).oneOf || [body.schema]).map(deref).filter(Boolean);
    const kinds = requests.map((create) => {
      const props = create.properties || {};
      const seats = props.seats || {};
      const players = range(seats.minItems || 2, seats.maxItems || seats.minItems || 4);
      return { kind: (props.kind || {}).const || (props.kind || {}).default, players,
        options: (deref(props.options) || {}).properties || {} };
    }).filter((k) => k.kind);
    const seatTypes = ((((requests[0] || {}).properties || {}).seats || {}).items || {}).oneOf || [];
    const ai = seatTypes.map(deref).find((s) => s && s.properties && s.properties.level);
    return { kinds: kinds.length ? kinds : [FALLBACK], levels: ai ? ai.properties.level.enum : ["random"] };
  }).catch(() => ({ kinds: [FALLBACK], levels: ["random", "greedy", "strong", "expert"] }));
  return schemaPromise;
}

const range = (low, high) => Array.from({ length: Math.max(1, high - low + 1) }, (_, i) => low + i);
const FALLBACK = { kind: "pantheon", players: [2, 3, 4], options: {} };  // the API document could not be read

// The fields of a kind's options that offer a choice: enums, constants, yes/no, and a seat or a
// constant (Pergamon's first player: a seat or "random"); named, with tooltips, in the game's words
// (its glossary: `words`, null if it could not be read).
function optionFields(options, players, words) {
  const said = new Map(((words || {}).options || []).map((o) => [o.option, o]));
  return Object.entries(options).map(([name, s]) => {
    const option = said.get(name);
    const value = (v) => ((option && option.values.find((w) => w.id === String(v))) || null);
    const alts = s.oneOf || [];
    const seatOr = alts.some((a) => a.type === "integer") && alts.some((a) => a.const !== undefined);
    let values, type = "string";
    if (s.enum || s.const !== undefined) values = (s.enum || [s.const]).map((v) => [v, v]);
    else if (s.type === "boolean") [values, type] = [[[false, "no"], [true, "yes"]], "boolean"];
    else if (seatOr) {
      values = [...alts.filter((a) => a.const !== undefined).map((a) => [a.const, a.const]),
        ...Array.from({ length: players }, (_, i) => [i, seatName(i)])];
      type = "seat";
    } else return null;
    return h("p", {}, h("label", { title: option ? option.description : null },
      `${option ? option.name : name.replace(/_/g, " ")} `, h("select", { name: `option:${name}`, "data-type": type },
        values.map(([v, text]) => h("option", { value: String(v), selected: v === s.default,
          title: value(v) ? value(v).description : null }, value(v) ? value(v).name : text)))));
  }).filter(Boolean);
}

export async function newGamePage(root) {
  const { kinds, levels } = await gameSchema();
  const words = new Map(await Promise.all(kinds.map(async (k) => [k.kind, await glossary(k.kind)])));
  const message = h("p", { class: "message", role: "alert" });
  const seats = h("fieldset", { class: "seat-specs" }, h("legend", {}, "Players"));
  const players = h("select", { name: "players", id: "players", onchange: () => { drawSeats(); drawOptions(); } });
  const seatKinds = [["me", "You"], ["invite", "A friend (invite link)"], ["anyone", "Anyone (open seat)"],
    ...levels.map((l) => [`ai:${l}`, `AI (${l})`])];
  function drawSeats() {
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(h("legend", {}, "Players"), ...Array.from({ length: Number(players.value) }, (_, i) =>
      h("p", {}, h("label", {}, `${seatName(i)} `, h("select", { name: `seat${i}` }, seatKinds.map(([v, t]) =>
        h("option", { value: v, selected: v === (old[i] || (i === 0 ? "me" : `ai:${levels[0]}`)) }, t)))))));
  }
  const options = h("fieldset", { class: "game-options" });
  const rules = h("span", { class: "rules" });
  const game = h("select", { name: "kind", id: "kind", onchange: () => { drawPlayers(); drawSeats(); drawOptions(); } },
    kinds.map((k, i) => h("option", { value: k.kind, selected: i === 0 }, kindTitle(k.kind))));
  const chosenKind = () => kinds.find((k) => k.kind === game.value) || kinds[0];
  function drawPlayers() {  // the numbers of players the chosen game allows; the one chosen stays if allowed
    const allowed = chosenKind().players;
    const keep = allowed.includes(Number(players.value)) ? Number(players.value) : allowed[0];
    players.replaceChildren(...allowed.map((n) => h("option", { value: n, selected: n === keep }, n)));
    players.value = String(keep);
  }
  drawPlayers();
  drawSeats();
  function drawOptions() {
    const old = Object.fromEntries([...options.querySelectorAll("select")].map((s) => [s.name, s.value]));
    const fields = optionFields(chosenKind().options, Number(players.value), words.get(chosenKind().kind));
    for (const select of fields.map((f) => f.querySelector("select"))) {  // what was chosen stays chosen
      if (select.name in old && [...select.options].some((o) => o.value === old[select.name])) select.value = old[select.name];
    }
    options.hidden = !fields.length;
    options.replaceChildren(h("legend", {}, "Game options"), ...fields);
    rules.replaceChildren(rulesLink(chosenKind().kind));
  }
  drawOptions();
  const form = h("form", { class: "new-game", onsubmit: (event) => { event.preventDefault(); create(form, message, game.value); } },
    h("p", {}, h("label", { for: "kind" }, "Game "), game, " ", rules),
    h("p", {}, h("label", { for: "players" }, "Number of players "), players), seats, options, clockChoice(),
    h("p", {}, h("label", { for: "new-name" }, "Your name (optional) "), nameInput({ id: "new-name" })),
    h("button", { type: "submit" }, "Start"));
  root.replaceChildren(h("h1", {}, "New game"), form, message);
}

async function create(form, message, kind) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  const name = form.querySelector("[data-testid=player-name]").value.trim();
  let named = false;  // the name goes to the first of your seats (names are unique in a game)
  const seats = [...form.querySelectorAll(".seat-specs select")].map((s) => {
    if (s.value.startsWith("ai:")) return { type: "ai", level: s.value.slice(3) };
    const seat = { type: "human", holder: s.value === "me" ? "creator" : s.value };
    if (s.value === "me" && name && !named) [seat.name, named] = [name, true];
    return seat;
  });
  const options = {};
  for (const select of form.querySelectorAll("select[name^='option:']")) {
    const { type } = select.dataset;
    options[select.name.slice(7)] = type === "boolean" ? select.value === "true"
      : type === "seat" && /^\d+$/.test(select.value) ? Number(select.value) : select.value;
  }
  try {
    const clock = clockOf(form, seats);
    const created = await change("POST", "games", { body: { kind, options, seats, ...(clock ? { clock } : {}) } });
    rememberName(name);
    remember(created.game, { admin: created.admin_token, invites: created.invites || [],
      seats: Object.fromEntries((created.seats || []).map((s) => [s.seat, s.token])) });
    location.hash = `#/game/${created.game}`;
  } catch (error) {
    message.textContent = problemText(error);
    button.disabled = false;
  }
}
