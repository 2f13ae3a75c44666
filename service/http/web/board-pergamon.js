// Pergamon's board: the edition's SVG from the server (its funding spaces, galleries, calendar
// rounds and museum spaces are rects with classes `space-N`, `gallery-N`, `round-N`, `museum-N`),
// with the figures, the tiles in the galleries, this round's funding cards and finds, the calendar's
// progress and the museum's markers drawn over it; funding spaces and galleries a choice names are
// clickable there. Beside it: every seat's coins, VP, loose tiles and collections (a tile or a
// collection a choice names is a button), and the round's public state.

import { boardSvg, choiceShape, el, SEAT_COLORS, SEAT_LETTERS, seatName } from "./board.js";
import { h, swatch, who, words } from "./dom.js";

export const TITLE = "Pergamon";

// Tile ids are 100 × century + number; the halves ("mask | vase") are learnt from the server's
// choice labels ("463 (mask | vase)") as they are seen, to name tiles more fully.
const halves = new Map();
function learn(choices) {
  for (const c of choices) {
    for (const m of String(c.label).matchAll(/(\d{3}) \(([a-z]+) \| ([a-z]+)\)/g)) halves.set(Number(m[1]), `${m[2]} | ${m[3]}`);
  }
}
const century = (tile) => Math.floor(tile / 100);
export const tileName = (tile) => `tile ${tile} (century ${century(tile)}${halves.has(tile) ? `: ${halves.get(tile)}` : ""})`;

function box(node) {
  return { x: Number(node.getAttribute("x")), y: Number(node.getAttribute("y")),
    w: Number(node.getAttribute("width")), h: Number(node.getAttribute("height")) };
}

export class Board {
  constructor(host, onChoice) {
    this.host = host;
    this.onChoice = onChoice;
    this.svg = null;
    this.seen = null;  // the tiles and markers drawn last, to highlight what changed
  }

  async load(kind, edition) {
    if (this.svg && this.edition === `${kind}/${edition}`) return;
    const svg = await boardSvg(kind, edition);
    this.rects = new Map();  // "space-7", "gallery-3", "round-2", "museum-12" -> its box
    for (const node of svg.querySelectorAll("rect[class]")) {
      const name = [...node.classList].find((c) => /^(space|gallery|round|museum)-\d+$/.test(c));
      if (name) this.rects.set(name, box(node));
    }
    const [, , width] = (svg.getAttribute("viewBox") || "0 0 716 474").split(/\s+/).map(Number);
    this.width = width;
    this.layer = el("g", { class: "overlay" });
    svg.appendChild(this.layer);
    this.host.replaceChildren(svg);
    this.svg = svg;
    this.edition = `${kind}/${edition}`;
    this.seen = null;
  }

  draw(view, choices = [], path = [], active = false) {
    if (!this.svg) return;
    learn(choices);
    const layer = el("g");
    const seen = new Set();
    const fresh = (id) => { seen.add(id); return this.seen !== null && !this.seen.has(id); };
    this.calendar(layer, view);
    this.galleries(layer, view, fresh);
    this.track(layer, view);
    this.museum(layer, view, fresh);
    const finds = new Map();  // a find to arrange (variant 2) that a choice names: clickable on the board
    for (const c of active ? choices : []) if (typeof (c.refers || {}).tile === "number" && (view.finds || []).includes(c.refers.tile)) finds.set(c.refers.tile, c);
    this.roundInfo(layer, view, finds);
    if (active) {
      const drawn = new Set();  // one clickable shape per space or gallery (the list offers every choice)
      for (const choice of choices) this.choice(layer, choice, drawn);
    }
    // the row being exhibited or the tiles being discarded: marked in the galleries' stead
    const last = path.length ? path[path.length - 1].refers || {} : {};
    if (last.museum_space || last.value) this.museumTarget(layer, Math.min(last.museum_space || last.value, 24));
    this.seen = seen;
    this.layer.replaceChildren(...layer.childNodes);
  }

  calendar(layer, view) {
    for (const [name, b] of this.rects) {
      if (!name.startsWith("round-")) continue;
      const r = Number(name.slice(6));
      if (r < view.round) layer.appendChild(el("rect", { class: "round-past", x: b.x, y: b.y, width: b.w, height: b.h, rx: 4 }));
      if (r === view.round) {
        const g = el("g", { class: "round-now" });
        g.appendChild(el("title", {}, `Round ${r} of ${view.round + view.calendar_stacks}: ${words(view.phase)}`));
        g.appendChild(el("rect", { x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 5 }));
        layer.appendChild(g);
      }
    }
  }

  galleries(layer, view, fresh) {
    (view.galleries || []).forEach((tiles, i) => {
      const b = this.rects.get(`gallery-${i + 1}`);
      if (!b) return;
      // the tiles cover the lower part of the gallery (its capacity is said on the board above them)
      if (tiles.length) layer.appendChild(el("rect", { class: "gallery-floor", x: b.x + 2, y: b.y + 38, width: b.w - 4, height: b.h - 40, rx: 3 }));
      tiles.forEach((tile, k) => {
        const w = (b.w - 6) / 2, x = b.x + 3 + (k % 2) * w, y = b.y + 40 + Math.floor(k / 2) * 12;
        this.tile(layer, tile, x, y, w - 1, 11, fresh(`g${tile}`));
      });
    });
  }

  tile(layer, tile, x, y, w, hgt, isNew, extra = "") {
    const g = el("g", { class: `tile century-${century(tile)}${isNew ? " fresh" : ""}${extra}` });
    g.appendChild(el("title", {}, tileName(tile)));
    g.appendChild(el("rect", { x, y, width: w, height: hgt, rx: 2 }));
    g.appendChild(el("text", { x: x + w / 2, y: y + hgt / 2 + 0.5, "text-anchor": "middle", "dominant-baseline": "central" },
      String(tile)));
    layer.appendChild(g);
  }

  figure(layer, b, label, seat, title) {
    const x = b.x + b.w - 9, y = b.y + 9;
    const g = el("g", { class: `figure ${seat === null ? "tomb-raider" : `seat-${seat}`}` });
    g.appendChild(el("title", {}, title));
    g.appendChild(el("circle", { cx: x, cy: y, r: 8, fill: seat === null ? "#444" : SEAT_COLORS[seat], stroke: "#111" }));
    g.appendChild(el("text", { x, y: y + 0.5, class: "letter", "text-anchor": "middle", "dominant-baseline": "central" }, label));
    layer.appendChild(g);
  }

  track(layer, view) {
    for (const [space, seat] of Object.entries(view.track || {})) {
      const b = this.rects.get(`space-${space}`);
      if (b) this.figure(layer, b, SEAT_LETTERS[seat] || "?", seat, `${seatName(seat)}'s figure on funding space ${space}`);
    }
    const raider = view.tomb_raider;
    if (raider && raider.space) {
      const b = this.rects.get(`space-${raider.space}`);
      if (b) this.figure(layer, b, "T", null, `The tomb raider on funding space ${raider.space} (purse ${raider.purse})`);
    }
  }

  museum(layer, view, fresh) {
    for (const [space, marker] of Object.entries(view.museum || {})) {
      const b = this.rects.get(`museum-${space}`);
      if (!b) continue;
      const isNew = fresh(`m${space}:${marker.seat}:${marker.numeral}`);
      const g = el("g", { class: `marker seat-${marker.seat}${isNew ? " fresh" : ""}` });
      const x = b.x + b.w / 2, y = b.y + b.h - 6;  // below the space's number and VP
      g.appendChild(el("title", {}, `${seatName(marker.seat)}'s collection ${roman(marker.numeral)} on museum space ${space}`));
      g.appendChild(el("rect", { x: b.x + 3, y: y - 5, width: b.w - 6, height: 10, rx: 3, fill: SEAT_COLORS[marker.seat], stroke: "#111" }));
      g.appendChild(el("text", { x, y: y + 0.5, class: "letter", "text-anchor": "middle", "dominant-baseline": "central" },
        `${SEAT_LETTERS[marker.seat]} ${roman(marker.numeral)}`));
      layer.appendChild(g);
    }
  }

  museumTarget(layer, space) {
    const b = this.rects.get(`museum-${space}`);
    if (b) layer.appendChild(el("rect", { class: "target", x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 5 }));
  }

  // Right of the galleries: the round, this round's funding cards and finds.
  roundInfo(layer, view, finds = new Map()) {
    const g5 = this.rects.get("gallery-5");
    if (!g5) return;
    const x = g5.x + g5.w + 24;
    let y = g5.y + 8;
    const line = (text, cls = "info") => { layer.appendChild(el("text", { x, y, class: cls }, text)); y += 14; };
    line(view.finished ? "The game has ended" : `Round ${view.round} · ${words(view.phase)}`, "info strong");
    const f = view.funding || {};
    const cards = (f.backs || []).map((back, i) => (f.values && f.values[i] !== undefined ? `${back} ${f.values[i]}` : back));
    line(`Funding cards: ${cards.length ? cards.join(", ") : "none"}`);
    line(`Rounds left on the calendar: ${view.calendar_stacks}`);
    if (view.tomb_raider) line(`Tomb raider: ${view.tomb_raider.space ? `space ${view.tomb_raider.space}` : "off the track"}, purse ${view.tomb_raider.purse}`);
    line(`Tiles unrevealed: ${(view.unrevealed || []).length} · in the box: ${(view.box || []).length + (view.unseen_in_box || 0)}`);
    if (view.finds && view.finds.length) {  // the finds to arrange (variant 2), on one line
      layer.appendChild(el("text", { x, y, class: "info" }, "Finds:"));
      view.finds.forEach((tile, k) => {
        this.tile(layer, tile, x + 40 + k * 30, y - 10, 28, 12, false);
        const choice = finds.get(tile);
        if (choice) {
          layer.appendChild(choiceShape(el("rect", { class: "choice-area find", x: x + 39 + k * 30, y: y - 11, width: 30, height: 14, rx: 2 }),
            choice, this.onChoice));
        }
      });
    }
  }

  choice(layer, choice, drawn) {
    const r = choice.refers || {};
    const name = r.gallery ? `gallery-${r.gallery}` : r.space && r.ask !== undefined ? `space-${r.space}` : null;
    const b = name && this.rects.get(name);
    if (!b || drawn.has(name)) return;
    drawn.add(name);
    layer.appendChild(choiceShape(el("rect", { class: `choice-area ${name.split("-")[0]}`, x: b.x, y: b.y, width: b.w, height: b.h, rx: 4 }),
      choice, this.onChoice));
  }
}

const ROMAN = ["", "I", "II", "III", "IV", "V"];
const roman = (n) => ROMAN[n] || String(n);

function tileChip(tile, choice, pick, chosen) {
  const label = tileName(tile);
  const cls = `tile-chip century-${century(tile)}${chosen ? " chosen" : ""}`;
  return choice
    ? h("button", { type: "button", class: cls, "data-choice": choice.key, onclick: () => pick(choice),
      "aria-label": choice.label, title: choice.label }, String(tile))
    : h("span", { class: cls, title: label, role: "img", "aria-label": label }, String(tile));
}

// One panel per seat: coins, VP (hidden while secret), its figure, loose tiles and collections.
function seatPanels(view, { detail, seat: mine, choices = [], pick = () => {}, path = [] }) {
  const byTile = new Map(), byNumeral = new Map();
  for (const c of choices) {
    const r = c.refers || {};
    if (typeof r.tile === "number" && !byTile.has(r.tile)) byTile.set(r.tile, c);
    if (typeof r.numeral === "number" && !byNumeral.has(r.numeral)) byNumeral.set(r.numeral, c);
  }
  const last = path.length ? path[path.length - 1].refers || {} : {};
  const chosen = new Set(last.tiles || (typeof last.tile === "number" ? [last.tile] : []));
  const awaited = view.awaiting ? view.awaiting.seat : null;
  return (view.seats || []).map((s) => {
    const own = s.seat === mine;
    const vp = s.vp ?? (own && view.you ? view.you.vp : null);
    const loose = s.loose.map((t) => tileChip(t, own ? byTile.get(t) : null, pick, own && chosen.has(t)));
    const collections = s.collections.map((k) => {
      const choice = own ? byNumeral.get(k.numeral) : null;
      const words_ = `Collection ${roman(k.numeral)}: tiles ${k.tiles.join(", ")} on museum space ${k.space}, value ${k.value}` +
        (k.objects.length ? ` (${k.objects.map((o) => `${o.type} ${o.date}, ${o.points} points`).join("; ")})` : "");
      return h("li", {}, choice
        ? h("button", { type: "button", class: "collection", "data-choice": choice.key, onclick: () => pick(choice),
          "aria-label": choice.label, title: choice.label }, words_)
        : words_);
    });
    return h("section", { class: `seat-panel${s.seat === awaited ? " awaited" : ""}`, "data-seat": s.seat,
      "aria-label": `${seatName(s.seat)}${own ? " (you)" : ""}` },
    h("h3", {}, swatch(s.seat), " ", who(s.seat, detail, mine), s.seat === awaited ? " ◀ to play" : ""),
    h("p", {}, h("span", { class: "coins", "data-coins": s.coins }, `${s.coins} coins`), " · ",
      h("span", { class: "vp", "data-vp": vp ?? "" }, vp === null ? "VP secret" : `${vp} VP`),
      s.figure ? ` · figure on space ${s.figure}` : "", ` · free marker pairs: ${s.free_pairs.map(roman).join(", ") || "none"}`),
    h("div", { class: "tiles", "aria-label": "Loose tiles" }, loose.length ? loose : h("span", {}, "no loose tiles")),
    collections.length ? h("ul", { class: "collections" }, collections) : null);
  });
}

// The players as a table (the same shape as Pantheon's, for the score columns).
function seatsTable(view, detail, mine) {
  const awaited = view.awaiting ? view.awaiting.seat : null;
  const rows = (view.seats || []).map((s) => {
    const vp = s.vp ?? (s.seat === mine && view.you ? view.you.vp : null);
    return h("tr", { class: s.seat === awaited ? "awaited" : null, "data-seat": s.seat },
      h("th", { scope: "row" }, swatch(s.seat), " ", who(s.seat, detail, mine), s.seat === awaited ? " ◀ to play" : ""),
      h("td", { class: "score", "data-score": vp ?? "" }, vp === null ? "secret" : String(vp)),
      h("td", { class: "coins" }, String(s.coins)), h("td", {}, String(s.loose.length)), h("td", {}, String(s.collections.length)));
  });
  return h("table", { class: "seats" }, h("caption", {}, "Players"),
    h("thead", {}, h("tr", {}, ["Player", "VP", "Coins", "Loose tiles", "Collections"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows));
}

// Your own seat first (its tiles are what you click), then the players, then the others' tiles.
export function panels(view, ctx) {
  const seats = seatPanels(view, ctx);
  const mine = seats.filter((p) => Number(p.dataset.seat) === ctx.seat);
  return [...mine, seatsTable(view, ctx.detail, ctx.seat), h("h2", {}, "Players' tiles"),
    ...seats.filter((p) => !mine.includes(p))];
}

export function replayPanels(view, detail, seat) {
  return panels(view, { detail, seat });
}
