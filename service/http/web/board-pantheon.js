// Pantheon's board: the edition's SVG from the server (its hexes carry data-q/data-r), with pieces,
// loot, the temple, the choices that name a hex and the path being built drawn over it; and the
// panels beside it (your hand, the open cards, the public state, the players).

import { boardSvg, el, SEAT_COLORS, SEAT_LETTERS, seatName } from "./board.js";
import { h, publicState, seatsTable } from "./dom.js";
import { describe, glossary, termName, termTitle } from "./glossary.js";

const cardName = (card) => termName("pantheon", "cards", card);  // "Special money 3"
const hexName = (key) => termName("pantheon", "hexes", key);  // "Roma, hex 3"

export const TITLE = "Pantheon";

export class Board {
  // A board drawn in `host`; `onChoice(choice)` is called when a choice on it is picked.
  constructor(host, onChoice) {
    this.host = host;
    this.onChoice = onChoice;
    this.svg = null;
    this.centres = new Map();
    this.seen = null;  // the pieces drawn last, to highlight what changed
  }

  async load(kind, edition) {
    if (this.svg && this.edition === `${kind}/${edition}`) return;
    const [svg] = await Promise.all([boardSvg(kind, edition), glossary(kind)]);
    this.centres.clear();
    for (const hex of svg.querySelectorAll("polygon.hex")) {
      const pts = hex.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
      const x = pts.reduce((s, p) => s + p[0], 0) / pts.length;
      const y = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      this.centres.set(`${hex.dataset.q},${hex.dataset.r}`, { x, y, points: hex.getAttribute("points") });
    }
    this.layer = el("g", { class: "overlay" });
    hexGroup(svg).appendChild(this.layer);
    this.host.replaceChildren(svg);
    this.svg = svg;
    this.edition = `${kind}/${edition}`;
    this.seen = null;
  }

  // Draw the view's pieces, loot and temple; `choices` that name a hex become clickable hexes
  // (when `active`); `path` is the list of choices already taken in a command being built.
  draw(view, choices = [], path = [], active = false, seat = null) {
    if (!this.svg) return;
    const layer = el("g");
    const seen = new Set();
    for (const item of view.loot || []) this.loot(layer, item);
    const stacks = new Map();
    for (const piece of view.pieces || []) {
      const key = piece.hex.join(",");
      stacks.set(key, [...(stacks.get(key) || []), piece]);
    }
    for (const [key, stack] of stacks) {
      stack.forEach((piece, k) => {
        const id = `${key}:${piece.seat}:${piece.piece}:${k}`;
        seen.add(id);
        this.piece(layer, key, piece, k, stack.length, this.seen !== null && !this.seen.has(id));
      });
    }
    if (view.temple) this.temple(layer, view.temple);
    this.path(layer, path, seat);
    const drawn = new Set();  // one clickable shape per hex (the list offers every choice)
    if (active) for (const choice of choices) this.choice(layer, choice, drawn);
    this.seen = seen;
    this.layer.replaceChildren(...layer.childNodes);
  }

  piece(layer, key, piece, k, n, fresh) {
    const c = this.centres.get(key);
    if (!c) return;
    const x = c.x + (k - (n - 1) / 2) * 15, y = c.y + 4;
    const g = el("g", { class: `piece ${piece.piece} seat-${piece.seat}${fresh ? " fresh" : ""}` });
    g.appendChild(el("title", {}, `${seatName(piece.seat)}: ${piece.piece} on ${hexName(key)}`));
    const fill = SEAT_COLORS[piece.seat] || "#888";
    if (piece.piece === "column") g.appendChild(el("rect", { x: x - 7, y: y - 11, width: 14, height: 20, rx: 2, fill, stroke: "#111" }));
    else g.appendChild(el("circle", { cx: x, cy: y, r: 8, fill, stroke: "#111", "stroke-width": 1.2 }));
    g.appendChild(el("text", { x, y: y + 0.5, class: "letter", "text-anchor": "middle", "dominant-baseline": "central" },
      SEAT_LETTERS[piece.seat] || "?"));
    layer.appendChild(g);
  }

  loot(layer, item) {
    const c = this.centres.get(item.hex.join(","));
    if (!c) return;
    const g = el("g", { class: "loot" });
    g.appendChild(el("title", {}, `Loot on ${hexName(item.hex.join(","))}: ${termTitle("pantheon", "loot_tiles", item.tile) || "a loot tile"}`));
    g.appendChild(el("rect", { x: c.x - 13, y: c.y - 20, width: 26, height: 9, rx: 2 }));
    layer.appendChild(g);
  }

  temple(layer, hex) {
    const c = this.centres.get(hex.join(","));
    if (!c) return;
    const g = el("g", { class: "temple" });
    g.appendChild(el("title", {}, `The temple, on ${hexName(hex.join(","))}`));
    g.appendChild(el("polygon", { points: `${c.x - 12},${c.y - 6} ${c.x},${c.y - 18} ${c.x + 12},${c.y - 6}` }));
    layer.appendChild(g);
  }

  // The pieces placed so far in the command being built: dashed, numbered in order, joined.
  path(layer, path, seat) {
    const steps = path.filter((choice) => choice.refers && choice.refers.hex)
      .map((choice) => ({ c: this.centres.get(choice.refers.hex.join(",")), piece: choice.refers.piece }))
      .filter((step) => step.c);
    if (steps.length > 1) {
      layer.appendChild(el("polyline", { class: "path", points: steps.map(({ c }) => `${c.x},${c.y}`).join(" ") }));
    }
    steps.forEach(({ c, piece }, i) => {
      const fill = SEAT_COLORS[seat] || "#888";
      layer.appendChild(piece === "column"
        ? el("rect", { class: "ghost", x: c.x - 8, y: c.y - 8, width: 16, height: 22, rx: 2, fill })
        : el("circle", { class: "ghost", cx: c.x, cy: c.y + 4, r: 10, fill }));
      layer.appendChild(el("circle", { class: "step", cx: c.x + 11, cy: c.y - 12, r: 8 }));
      layer.appendChild(el("text", { class: "step-number", x: c.x + 11, y: c.y - 11.5, "text-anchor": "middle",
        "dominant-baseline": "central" }, String(i + 1)));
    });
  }

  choice(layer, choice, drawn) {
    const hex = choice.refers && choice.refers.hex;
    const c = hex && this.centres.get(hex.join(","));
    if (!c || drawn.has(hex.join(","))) return;
    drawn.add(hex.join(","));
    const node = el("polygon", { class: `choice-hex ${choice.refers.piece || ""}`, points: c.points,
      "data-choice": choice.key, tabindex: "0", role: "button", "aria-label": choice.label });
    node.appendChild(el("title", {}, choice.label));
    node.addEventListener("click", () => this.onChoice(choice));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.onChoice(choice); }
    });
    layer.appendChild(node);
  }
}

function hexGroup(svg) {  // the group the hexes are drawn in (its transform places them)
  const hex = svg.querySelector("polygon.hex");
  return hex ? hex.parentNode : svg;
}

// The panels beside the board while playing: `ctx` = {detail, seat, choices (the clickable ones:
// none unless it is your turn), pick(choice)}.
export function panels(view, ctx) {
  return [hand(view, ctx), publicState(view), display(view, ctx), seatsTable(view, ctx.detail, ctx.seat)];
}

export function replayPanels(view, detail, seat) {
  return [publicState(view), seatsTable(view, detail, seat)];
}

// Your hand: a card a choice names (discarding, playing) is a button.
function hand(view, { choices, pick }) {
  const you = view.you;
  if (!you) return h("div");
  const byCard = new Map();
  for (const c of choices) {
    if (c.refers && c.refers.card && c.refers.slot === undefined && !byCard.has(c.refers.card)) byCard.set(c.refers.card, c);
  }
  const cards = Object.entries(you.hand || {}).filter(([, n]) => n).map(([card, n]) => {
    const choice = byCard.get(card);
    return choice
      ? h("button", { type: "button", class: `card ${card}`, "data-choice": choice.key, onclick: () => pick(choice),
        "aria-label": choice.label, title: describe("pantheon", choice) }, `${cardName(card)} ×${n}`)
      : h("span", { class: `card ${card}` }, `${cardName(card)} ×${n}`);
  });
  return h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, "Your hand"),
    h("div", { class: "cards" }, cards.length ? cards : "no cards"),
    you.half_gods && you.half_gods.length
      ? h("p", {}, `Your half gods: ${you.half_gods.length}, worth ${you.half_gods.join(" + ")} points`) : null);
}

// The open cards: one a choice names (drawing it) is a button.
function display(view, { choices, pick }) {
  const bySlot = new Map();
  for (const c of choices) {
    if (c.refers && typeof c.refers.slot === "number" && !bySlot.has(c.refers.slot)) bySlot.set(c.refers.slot, c);
  }
  const cards = (view.display || []).map((card, slot) => {
    const choice = bySlot.get(slot);
    const name = card ? cardName(card) : "empty";
    return choice
      ? h("button", { type: "button", class: `card ${card}`, "data-choice": choice.key, onclick: () => pick(choice),
        "aria-label": choice.label, title: describe("pantheon", choice) }, name)
      : h("span", { class: `card ${card}` }, name);
  });
  return h("section", { class: "display", "aria-label": "Open cards" }, h("h2", {}, "Open cards"), h("div", { class: "cards" }, cards));
}
