// What the card game's board and panels share: cards, columns and seats in words (never ids), and
// which thing on the table each of the server's choices is about (a pile, a column, a god, a temple,
// a card), so that it can be clicked there.

import { seatName } from "./board.js";

// Card ids are stable and follow one grammar (components file): god.<name>, temple.<kind>.<n>,
// worshiper.<level>.<n>, civ.<name>.<n>; the view names cards by id, so their words are made here.
// A god's pantheon and powers are learnt from the server's choice labels as they are seen
// ("Zeus (Greek; Minor Sun, Major War)").
const gods = new Map();
const GOD_PHRASE = /([A-Z][\w'-]*(?: [A-Z][\w'-]*)*) \(([A-Z][^;()]*); (Minor [^,()]+, Major [^()]+)\)/g;

export function learn(choices) {
  for (const c of choices || []) for (const m of String(c.label).matchAll(GOD_PHRASE)) gods.set(m[1], `${m[2]}; ${m[3]}`);
}

const titled = (text) => String(text).split("_").map((w) => w.replace(/^./, (c) => c.toUpperCase())).join(" ");
export const number = (n) => Number(n).toLocaleString("en");

export function cardName(id) {
  const [type, a, b] = String(id).split(".");
  if (type === "god" || type === "civ") return titled(a);
  if (type === "temple") return `${a} temple ${Number(b)}`;
  if (type === "worshiper") return `${number(a)} worshipers (card ${Number(b)})`;
  return titled(String(id).replace(/\./g, " "));
}

export function godTitle(id) {  // the god with what is known of it
  const name = cardName(id);
  return gods.has(name) ? `${name} (${gods.get(name)})` : name;
}

export const cardType = (id) => String(id).split(".")[0];
export const level = (id) => Number(String(id).split(".")[1]);
export const names = (ids) => (ids && ids.length ? ids.map(cardName).join(", ") : "none");

// A pile of worshiper cards by level, highest first: "500 ×2, 10 ×1".
export function byLevel(ids) {
  const counts = new Map();
  for (const id of ids || []) counts.set(level(id), (counts.get(level(id)) || 0) + 1);
  return [...counts].sort((a, b) => b[0] - a[0]);
}
export const levelWords = (ids) => byLevel(ids).map(([l, n]) => `${number(l)} ×${n}`).join(", ") || "none";

export const you = (seat, mine) => `${seatName(seat)}${seat === mine ? " (you)" : ""}`;

// "Player B's column 2" (or "your column 2") from a column id "<seat>:<n>".
export function columnName(id, mine) {
  const [seat, n] = String(id).split(":").map(Number);
  return seat === mine ? `your column ${n}` : `${seatName(seat)}'s column ${n}`;
}

export function columnWords(column) {
  const temple = column.temple ? `${cardName(column.temple)}${column.damaged ? " (damaged)" : ""}` : "no temple";
  const god = column.god ? godTitle(column.god) : "no god";
  return `${god}; ${temple}; worshipers: ${levelWords(column.worshipers)}; value ${number(column.value)}`;
}

// The thing a choice is about, as a key the board and panels draw: `pile:<source>`,
// `column:<id>`, `new:<seat>:<label>` (a new column: "new" or a survivors' "new:k"), `god:<id>`,
// `temple:<id>`, `card:<id>`; null when it names none of them.
export function targetOf(choice, mine) {
  const r = choice.refers || {};
  if (r.source) return `pile:${r.source}`;
  if (r.column && String(r.column).startsWith("new")) return `new:${r.seat ?? mine}:${r.column}`;
  if (r.column) return `column:${r.column}`;
  if (r.god) return `god:${r.god}`;
  if (r.temple) return `temple:${r.temple}`;
  if (r.card) return `card:${r.card}`;
  return null;
}

// The targets that one choice alone names (several choices about one thing, such as the uses of a
// god's power, stay in the list only: a click on the thing would not say which).
export function clickable(choices, mine) {
  const found = new Map();
  for (const choice of choices || []) {
    const target = targetOf(choice, mine);
    if (target) found.set(target, found.has(target) ? null : choice);
  }
  return new Map([...found].filter(([, choice]) => choice));
}

// The targets of the command being built so far (marked as chosen).
export const chosen = (path, mine) => new Set((path || []).map((c) => targetOf(c, mine)).filter(Boolean));
