// Pantheon, the card game: the edition's table from the server (rects `pile-deck`, `pile-general`,
// `pile-gods`, one `seat-N` area per seat with its `column-slot-N-K` places), cropped to the game's
// seats, with the view drawn over it: each seat's columns (temple, god, worshiper cards by level,
// value), its hand size, score and civilization cards in effect, the draw deck and the tops of both
// discard piles, the war's sides. A pile, a column, a god or a temple that one of the server's
// choices names is clickable there. The panels beside it are in panels-pantheon-cards.js.

import { boardSvg, choiceShape, el, SEAT_COLORS, seatName } from "./board.js";
import { byLevel, cardName, chosen, clickable, columnWords, learn, number, you } from "./pantheon-cards.js";

export { panels, replayPanels } from "./panels-pantheon-cards.js";
export const TITLE = "Pantheon, the card game";

const PILES = { deck: "pile-deck", general_discard: "pile-general", god_discard: "pile-gods" };
const SLOTS = 6;  // the column places the table draws per seat; more columns share the same width

function box(node) {
  return { x: Number(node.getAttribute("x")), y: Number(node.getAttribute("y")),
    w: Number(node.getAttribute("width")), h: Number(node.getAttribute("height")) };
}

export class Board {
  constructor(host, onChoice) {
    this.host = host;
    this.onChoice = onChoice;
    this.svg = null;
  }

  async load(kind, edition) {
    if (this.svg && this.edition === `${kind}/${edition}`) return;
    const svg = await boardSvg(kind, edition);
    this.piles = new Map(Object.entries(PILES).map(([source, cls]) => [source, box(svg.querySelector(`rect.${cls}`))]));
    this.seats = [...svg.querySelectorAll("rect.seat")].map(box);
    this.slots = this.seats.map((_, s) => [...svg.querySelectorAll(`rect.column-slot[class*='column-slot-${s}-']`)].map(box));
    // the table's own words for a seat and a pile's contents are redrawn by the view: hidden here
    for (const text of svg.querySelectorAll("text")) {
      const y = Number(text.getAttribute("y"));
      const inSeat = this.seats.some((b) => y > b.y && y < b.y + 28);
      const pileNote = [...this.piles.values()].some((b) => y > b.y + 36 && y < b.y + b.h);
      if (inSeat || pileNote) text.setAttribute("visibility", "hidden");
    }
    this.layer = el("g", { class: "overlay" });
    svg.appendChild(this.layer);
    this.host.replaceChildren(svg);
    this.svg = svg;
    this.edition = `${kind}/${edition}`;
  }

  // The view drawn; `choices` that name a pile, a column, a god or a temple are clickable (when
  // `active`); `path` marks the choices already taken in the command being built.
  draw(view, choices = [], path = [], active = false, seat = null) {
    if (!this.svg) return;
    learn(choices);
    const players = Math.min(view.players || this.seats.length, this.seats.length);
    const last = this.seats[players - 1];
    if (last) this.svg.setAttribute("viewBox", `0 0 900 ${last.y + last.h + 6}`);
    this.targets = active ? clickable(choices, seat) : new Map();
    this.marked = chosen(path, seat);
    const layer = el("g");
    this.drawPiles(layer, view);
    for (const s of (view.seats || []).slice(0, players)) this.drawSeat(layer, view, s, seat);
    this.layer.replaceChildren(...layer.childNodes);
  }

  text(layer, x, y, words, cls = "info", anchor = "start") {
    layer.appendChild(el("text", { x, y, class: cls, "text-anchor": anchor, "dominant-baseline": "central" }, words));
  }

  clickArea(layer, target, b, cls) {
    const choice = this.targets.get(target);
    const marked = this.marked.has(target);
    if (marked) layer.appendChild(el("rect", { class: "target", x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 5 }));
    if (!choice) return;
    layer.appendChild(choiceShape(el("rect", { class: `choice-area ${cls}`, x: b.x, y: b.y, width: b.w, height: b.h, rx: 5 }),
      choice, this.onChoice));
  }

  drawPiles(layer, view) {
    const piles = { deck: [], general_discard: view.general_discard || [], god_discard: view.god_discard || [] };
    for (const [source, b] of this.piles) {
      const g = el("g", { class: `pile-state ${source}` });
      const cards = piles[source];
      const line = source === "deck" ? `${view.deck} cards, face down`
        : cards.length ? `${cards.length} card${cards.length === 1 ? "" : "s"} · top: ${cardName(cards[cards.length - 1])}` : "empty";
      g.appendChild(el("title", {}, source === "deck" ? `The draw deck: ${view.deck} cards`
        : `${source === "god_discard" ? "God" : "General"} discard pile, top first: ${cards.map(cardName).reverse().join(", ") || "empty"}`));
      this.text(g, b.x + b.w / 2, b.y + 48, line, "info strong", "middle");
      layer.appendChild(g);
      this.clickArea(layer, `pile:${source}`, b, "pile");
    }
  }

  drawSeat(layer, view, s, mine) {
    const b = this.seats[s.seat];
    const war = view.war;
    const awaited = view.awaiting && view.awaiting.seat === s.seat;
    if (awaited) layer.appendChild(el("rect", { class: "seat-awaited", x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }));
    const head = el("g", { class: `seat-head seat-${s.seat}`, "data-seat": s.seat });
    head.appendChild(el("circle", { cx: b.x + 14, cy: b.y + 16, r: 8, fill: SEAT_COLORS[s.seat] || "#888", stroke: "#111" }));
    this.text(head, b.x + 28, b.y + 16, `${you(s.seat, mine)}${awaited ? " ◀ to play" : ""}`, "info strong");
    const sides = war ? [war.attacker, war.defender] : [];
    const role = sides[0] === s.seat ? ` · attacking ${seatName(war.defender)}` : sides[1] === s.seat ? ` · defending against ${seatName(war.attacker)}` : "";
    const effect = s.in_effect.length ? ` · in effect: ${s.in_effect.map(cardName).join(", ")}` : "";
    const info = `${s.hand_size} card${s.hand_size === 1 ? "" : "s"} in hand · score ${s.score}` +
      `${s.multiplier > 1 ? ` · worshipers ×${s.multiplier}` : ""}${effect}${role}`;
    this.text(head, b.x + b.w - 10, b.y + 16, info, "info seat-info", "end");
    layer.appendChild(head);
    const ghosts = [...this.targets.keys(), ...this.marked].filter((t) => t.startsWith(`new:${s.seat}:`));
    const items = [...s.columns, ...[...new Set(ghosts)].map((t) => ({ ghost: t }))];
    const places = this.places(s.seat, items.length);
    if (items.length > SLOTS) layer.appendChild(el("rect", { class: "slots-cover", x: b.x + 2, y: b.y + 30, width: b.w - 4, height: b.h - 34 }));
    const committed = war ? new Set(war.columns.flat()) : new Set();
    items.forEach((item, k) => (item.ghost ? this.drawGhost(layer, item.ghost, places[k])
      : this.drawColumn(layer, item, places[k], s.seat, mine, committed.has(item.id))));
  }

  places(seat, n) {  // a box per column: the table's places, or narrower ones when there are more
    const slots = this.slots[seat];
    if (n <= slots.length) return slots.slice(0, n);
    const first = slots[0], right = slots[slots.length - 1].x + slots[slots.length - 1].w;
    const w = (right - first.x - (n - 1) * 6) / n;
    return Array.from({ length: n }, (_, k) => ({ x: first.x + k * (w + 6), y: first.y, w, h: first.h }));
  }

  drawColumn(layer, column, b, seat, mine, committed) {
    const n = column.id.split(":")[1];
    const g = el("g", { class: `column${committed ? " committed" : ""}`, "data-column": column.id });
    g.appendChild(el("title", {}, `${you(seat, mine)}, column ${n}: ${columnWords(column)}`));
    g.appendChild(el("rect", { class: "column-card", x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }));
    const cx = b.x + b.w / 2;
    this.text(g, cx, b.y + 11, column.temple ? `${cardName(column.temple)}${column.damaged ? " (damaged)" : ""}` : "no temple",
      `info temple${column.damaged ? " damaged" : ""}`, "middle");
    this.text(g, cx, b.y + 25, column.god ? cardName(column.god) : "no god", column.god ? "info strong god" : "info", "middle");
    byLevel(column.worshipers).forEach(([lvl, count], k) => {
      const w = (b.w - 9) / 2, x = b.x + 3 + (k % 2) * (w + 3), y = b.y + 34 + Math.floor(k / 2) * 16;
      const chip = el("g", { class: `worshipers level-${lvl}` });
      chip.appendChild(el("rect", { x, y, width: w, height: 14, rx: 3 }));
      this.text(chip, x + w / 2, y + 7.5, `${number(lvl)} ×${count}`, "chip", "middle");
      g.appendChild(chip);
    });
    this.text(g, cx, b.y + b.h - 9, `value ${number(column.value)}`, "info value", "middle");
    layer.appendChild(g);
    this.clickArea(layer, `column:${column.id}`, b, "column");
    if (column.temple) this.clickArea(layer, `temple:${column.temple}`, { x: b.x + 2, y: b.y + 3, w: b.w - 4, h: 16 }, "temple");
    if (column.god) this.clickArea(layer, `god:${column.god}`, { x: b.x + 2, y: b.y + 18, w: b.w - 4, h: 15 }, "god");
  }

  drawGhost(layer, target, b) {
    const label = target.split(":").slice(2).join(":");  // "new" or "new:k"
    const g = el("g", { class: "column ghost-column" });
    g.appendChild(el("rect", { class: "column-ghost", x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }));
    this.text(g, b.x + b.w / 2, b.y + b.h / 2, label === "new" ? "a new column" : `new column ${label.slice(4)}`, "info", "middle");
    layer.appendChild(g);
    this.clickArea(layer, target, b, "column");
  }
}
