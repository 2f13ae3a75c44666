// Small DOM helpers and the parts of a game view that the play and replay pages share.

import { SEAT_COLORS, SEAT_LETTERS, seatName } from "./board.js";
import { termName, termTitle } from "./glossary.js";
import { named } from "./names.js";

// h("button", {class: "x", onclick: f}, "text", child...): an element.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export const words = (text) => String(text).replace(/_/g, " ");
export const cardName = (card) => words(card).replace(/^./, (c) => c.toUpperCase());

export function swatch(seat) {  // a player's colour with its letter (colour alone is not enough)
  const node = h("span", { class: `swatch seat-${seat}`, "aria-hidden": "true" }, SEAT_LETTERS[seat] || "?");
  node.style.background = SEAT_COLORS[seat];  // by the CSSOM: the page's policy refuses style attributes
  return node;
}

export function who(seat, detail, mine) {  // "Ann", "Ann (you)", "Player B (person)", "Player C (AI, strong)"
  const info = detail && detail.seats ? detail.seats[seat] : null;
  const kind = seat === mine ? "you" : info && info.type === "ai" ? `AI, ${info.level}` : "person";
  return info && info.name && kind === "person" ? info.name : `${seatName(seat)} (${kind})`;
}

const list = (items) => (items && items.length ? items.map(words).join(", ") : "none");
// Pantheon's ids in its words (its glossary): "Traitera (needs 4-1)", "Steps +1", "Roma"
const termNames = (group, items) => (items && items.length ? items.map((i) => termName("pantheon", group, i)).join(", ") : "none");
const tip = (group, items) => (items || []).map((i) => termTitle("pantheon", group, i)).filter(Boolean).join("\n") || null;
const counts = (obj) => {
  const entries = Object.entries(obj || {}).filter(([, n]) => n);
  return entries.length ? entries.map(([k, n]) => `${cardName(k)} ×${n}`).join(", ") : "none";
};

// One row per seat: its public state (the awaited seat marked).
export function seatsTable(view, detail, mine) {
  const awaited = view.awaiting ? view.awaiting.seat : null;
  const rows = (view.seats || []).map((s) => h("tr", { class: s.seat === awaited ? "awaited" : null, "data-seat": s.seat },
    h("th", { scope: "row" }, swatch(s.seat), " ", who(s.seat, detail, mine), s.seat === awaited ? " ◀ to play" : ""),
    h("td", { class: "score", "data-score": s.score }, s.score),
    h("td", {}, s.hand_size), h("td", {}, `${s.feet} / ${s.columns}`),
    h("td", { title: tip("gods_tiles", s.gods) }, termNames("gods_tiles", s.gods)), h("td", {}, s.half_gods),
    h("td", {}, counts(s.sacrifice)),
    h("td", { title: tip("bonus_tiles", s.bonus ? [s.bonus] : []) }, [termNames("loot_tiles", s.tiles),
      s.bonus ? ` · bonus: ${termName("pantheon", "bonus_tiles", s.bonus)}${s.bonus_used ? " (used)" : ""}` : ""])));
  return h("table", { class: "seats" },
    h("caption", {}, "Players"),
    h("thead", {}, h("tr", {}, ["Player", "Score", "Cards", "Feet / columns", "Gods", "Half gods", "Sacrifices",
      "Tiles"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows));
}

// The public state around the board: epoch, nation, open cards, gods on offer, the temple.
export function publicState(view) {
  return h("dl", { class: "public" },
    h("dt", {}, "Epoch"), h("dd", { title: tip("nations", view.nation ? [view.nation] : []) },
      `${view.epoch ?? "–"}${view.nation ? ` · nation: ${termName("pantheon", "nations", view.nation)}` : ""}`),
    h("dt", {}, "Gods on offer"), h("dd", { title: tip("gods_tiles", view.gods_board) }, termNames("gods_tiles", view.gods_board)),
    h("dt", {}, "Half gods on offer"), h("dd", {}, list(view.half_god_display)),
    h("dt", {}, "Draw pile"), h("dd", {}, `${view.draw_pile ?? "–"} cards`),
    h("dt", {}, "Loot tiles on the map"), h("dd", {}, String((view.loot || []).length)));
}

// An event as the replay and the audit show it: its number, then the server's words for it
// ("v12 · Player A placed a foot on …"), which tell it as the caller may see it.
export function eventLine(version, text) {
  return `v${version} · ${text}`;
}

export function problemText(error) {
  // a seat as the page names it: "Player B's seat" (or its player's name), without the number
  // API paths use ("(seat 1)"), which the page never shows
  if (error && error.status) return `${named(error.message.replace(/ \(seat \d+\)/g, ""))} (${error.code}, ${error.status})`;
  return `The server could not be reached: ${error && error.message ? error.message : error}`;
}
