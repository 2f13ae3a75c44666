// Turn clocks: the new-game form's clock choice, and each clocked seat's time left, counting down on
// the game page from what the server said (GET /games/{id}'s `clock`). The server times a seat out
// (its clock keeper); this page only shows the time.

import { seatName } from "./board.js";
import { h } from "./dom.js";

const KINDS = [["", "No clock"], ["per_move", "Time per move"], ["fischer", "Fischer (bank + increment)"]];
const THEN = [["greedy", "the greedy AI plays that turn"], ["forfeit", "the player forfeits (ranked last)"]];

const number = (name, label, value) => h("label", {}, `${label} `,
  h("input", { type: "number", name, min: "0", step: "1", value: String(value), size: 6 }));

// The new-game form's part: which clock every human seat gets, and what a time-out does.
export function clockChoice() {
  const kind = h("select", { name: "clock:kind", onchange: () => draw() },
    KINDS.map(([v, t]) => h("option", { value: v }, t)));
  const more = h("span");
  const then = h("label", {}, "When time runs out ", h("select", { name: "clock:then" },
    THEN.map(([v, t]) => h("option", { value: v }, t))));
  function draw() {
    more.replaceChildren(...(kind.value === "per_move" ? [number("clock:seconds", "seconds per move", 120)]
      : kind.value === "fischer" ? [number("clock:bank", "bank (s)", 600), " ", number("clock:increment", "+ per move (s)", 10)]
        : []));
    then.hidden = !kind.value;
  }
  draw();
  return h("fieldset", { class: "clock-choice", "data-testid": "clock-choice" },
    h("legend", {}, "Turn clock (players, not the AI)"), h("p", {}, h("label", {}, "Clock ", kind), " ", more),
    h("p", {}, then));
}

// The request's `clock` for these seats (as the form sends them), or undefined for none.
export function clockOf(form, seats) {
  const value = (name) => (form.querySelector(`[name='clock:${name}']`) || {}).value;
  const kind = value("kind");
  if (!kind) return undefined;
  const clock = kind === "per_move" ? { type: "per_move", seconds: Number(value("seconds")) }
    : { type: "fischer", bank_s: Number(value("bank")), increment_s: Number(value("increment")) };
  return { seats: seats.map((s) => (s.type === "human" ? clock : null)), on_time_out: value("then") };
}

const mmss = (ms) => {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

// Each clocked seat's time left, ticking while its turn runs.
export class ClockView {
  constructor(game) {
    this.game = game;
    this.root = h("ul", { class: "clocks", "aria-label": "Turn clocks" });
    this.timer = setInterval(() => this.tick(), 250);
  }

  stop() { clearInterval(this.timer); }

  // A game status: each seat's time left as the server counted it when it answered. The page's reads
  // may be answered from the browser's cache (a 304: the same version), whose time left is as old as
  // the cached answer: a new version's clocks are read once more, past every cache (`fresh`).
  update(detail, mine, fresh = false) {
    const clock = detail.clock;
    this.root.hidden = !clock;
    if (!clock) return;
    if (!fresh && this.asked !== detail.version) {
      this.asked = detail.version;
      fetch(`games/${this.game}`, { cache: "no-store", headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .then((d) => { if (d && d.version === detail.version) this.update(d, mine, true); })
        .catch(() => {});  // the clock shows what it had
    }
    const turn = `${detail.version}`;
    const known = new Map(this.shown || []);
    this.shown = clock.seats.map((s) => {
      // a turn's end is taken once per version (a later answer of the same version adds nothing), or from a fresh read
      const same = known.get(s.seat);
      const keep = !fresh && same && same.turn === turn && same.running === s.running;
      const end = keep ? same.end : performance.now() + s.remaining_ms;
      return [s.seat, { turn, running: s.running && !detail.finished, end, left: s.remaining_ms }];
    });
    this.mine = mine;
    this.root.replaceChildren(...this.shown.map(([seat]) => h("li", { class: "clock", "data-testid": "clock",
      "data-seat": String(seat) })));
    this.tick();
  }

  tick() {
    for (const node of this.root.children) {
      const seat = Number(node.dataset.seat);
      const shown = new Map(this.shown || []).get(seat);
      if (!shown) continue;
      const left = shown.running ? shown.end - performance.now() : shown.left;
      const name = seat === this.mine ? "You" : seatName(seat);
      node.textContent = `${name}: ${mmss(left)}${shown.running && left <= 0 ? " (time is up)" : ""}`;
      node.classList.toggle("running", shown.running);
      node.classList.toggle("low", shown.running && left < 10000);
    }
  }
}
