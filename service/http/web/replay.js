// Replay: a slider and step buttons over every event, the board at that version, the event in
// words, the score chart; and "play on from here" (a fork).

import { allEvents, change, get, mySeat, remember } from "./api.js";
import { SEAT_COLORS, SEAT_LETTERS, seatName } from "./board.js";
import { eventLine, h, problemText } from "./dom.js";
import { forKind } from "./kinds.js";
import { fieldName, glossary } from "./glossary.js";
import { useNames } from "./names.js";

const NS = "http://www.w3.org/2000/svg";

export class ReplayPage {
  constructor(root, game, at) {
    Object.assign(this, { root, game, at, token: mySeat(game)[1], seq: 0 });
  }

  stop() { this.seq = -1; }

  async start() {
    const [detail, events, score] = await Promise.all([get(`games/${this.game}`), allEvents(this.game, this.token),
      get(`games/${this.game}/score`, { token: this.token })]);  // a seat sees its own secret score
    Object.assign(this, { detail, events, score: score.view });
    useNames(detail);
    // where a command's events end (a fork starts there): the next event comes from another command
    const key = (e) => `${e.seat}|${e.command}|${e.recorded_at}`;
    this.ends = events.filter((e, i) => i + 1 === events.length || key(events[i + 1]) !== key(e)).map((e) => e.version);
    // surer ends, for when two commands shared a millisecond: where the seat or command type changes
    const coarse = (e) => `${e.seat}|${e.command}`;
    this.sureEnds = events.filter((e, i) => i + 1 === events.length || coarse(events[i + 1]) !== coarse(e)).map((e) => e.version);
    const last = events.length ? events[events.length - 1].version : 1;
    this.at = Math.min(Math.max(1, this.at || last), last);
    this.slider = h("input", { type: "range", id: "replay-at", min: 1, max: last, value: this.at, step: 1,
      "aria-label": "Event", oninput: () => this.go(Number(this.slider.value)) });
    const step = (label, to) => h("button", { type: "button", onclick: () => this.go(to()) }, label);
    this.eventText = h("p", { class: "event", "aria-live": "polite" });
    this.message = h("p", { class: "message", role: "alert" });
    this.boardHost = h("div", { class: "board-host" });
    this.side = h("div", { class: "side" });
    this.chart = h("div", { class: "chart" });
    this.forkArea = h("div");
    this.kind = forKind(detail.kind);
    this.board = new this.kind.Board(this.boardHost, () => {});
    this.root.replaceChildren(
      h("h1", {}, `Replay of ${this.game}`),
      h("nav", { class: "game-links", "aria-label": "This game" }, h("a", { href: `#/game/${this.game}` }, "Game"), " ",
        h("a", { href: `#/audit/${this.game}` }, "Audit")),
      h("div", { class: "replay-controls" },
        h("label", { for: "replay-at" }, "Event "), this.slider, h("output", { for: "replay-at", class: "at" }),
        h("div", { class: "steps" },
          step("« First", () => 1), step("◀ Previous move", () => [...this.ends].reverse().find((v) => v < this.at) || 1),
          step("‹ Previous event", () => Math.max(1, this.at - 1)), step("Next event ›", () => Math.min(last, this.at + 1)),
          step("Next move ▶", () => this.ends.find((v) => v > this.at) || last), step("Last »", () => last),
          h("button", { type: "button", class: "fork", onclick: () => this.forkForm() }, "Play on from here"))),
      this.eventText, this.message, this.forkArea,
      h("div", { class: "play" }, this.boardHost, h("div", { class: "panel" }, this.chart, this.side)));
    const edition = (detail.options || {}).edition;
    await Promise.all([edition ? this.board.load(detail.kind, edition) : null, glossary(detail.kind)]);
    await this.go(this.at);
  }

  async go(at) {
    this.at = at;
    this.slider.value = String(at);
    this.root.querySelector("output.at").textContent = `${at} of ${this.slider.max}`;
    history.replaceState(null, "", `#/replay/${this.game}/${at}`);
    const event = this.events.find((e) => e.version === at);
    this.eventText.textContent = event ? eventLine(event.version, event.text) : "";
    const seq = ++this.seq;
    await new Promise((resolve) => setTimeout(resolve, 60));  // a dragged slider reads only where it stops
    if (seq !== this.seq) return;
    try {
      const view = await get(`games/${this.game}/view`, { token: this.token, params: { at: String(at) } });
      if (seq !== this.seq) return;
      this.board.draw(view.view, [], [], false, mySeat(this.game)[0]);  // the seat held here is "you"
      this.side.replaceChildren(...this.kind.replayPanels(view.view, this.detail, mySeat(this.game)[0]));
      this.chart.replaceChildren(scoreChart(this.score, at, this.detail.kind));
      document.body.dataset.version = String(view.version);
    } catch (error) { this.message.textContent = problemText(error); }
  }

  snapped() {  // the end of the command whose events include `at`
    return this.ends.find((v) => v >= this.at) || this.at;
  }

  forkForm() {
    const at = this.snapped();
    const [mine] = mySeat(this.game);
    const players = (this.detail.seats || []).length;
    const form = h("form", { class: "fork-form", onsubmit: (event) => { event.preventDefault(); this.fork(form, at); } },
      h("p", {}, `Play on from event ${at} (where that move ends):`),
      Array.from({ length: players }, (_, i) => h("p", {}, h("label", {}, `${seatName(i)} `,
        h("select", { name: `seat${i}` }, [["me", "You"], ["invite", "A friend (invite link)"], ["ai:random", "AI (random)"],
          ["ai:greedy", "AI (greedy)"], ["ai:strong", "AI (strong)"], ["ai:expert", "AI (expert)"]].map(([v, t]) =>
          h("option", { value: v, selected: v === ((mine ?? 0) === i ? "me" : "ai:random") }, t)))))),
      h("button", { type: "submit" }, "Start the fork"));
    this.forkArea.replaceChildren(form);
    form.querySelector("select").focus();
  }

  async fork(form, at) {
    const seats = [...form.querySelectorAll("select")].map((s) => s.value.startsWith("ai:")
      ? { type: "ai", level: s.value.slice(3) } : { type: "human", holder: s.value === "me" ? "creator" : s.value });
    form.querySelector("button").disabled = true;
    try {
      let created;
      try {
        created = await change("POST", `games/${this.game}/fork`, { token: this.token, body: { at, seats } });
      } catch (error) {
        const later = this.sureEnds.find((v) => v >= at);
        if (error.code !== "fork_inside_command" || !later || later === at) throw error;
        created = await change("POST", `games/${this.game}/fork`, { token: this.token, body: { at: later, seats } });
      }
      const mine = seats.map((s, i) => (s.holder === "creator" ? i : null)).filter((i) => i !== null);
      remember(created.game, { admin: created.admin_token, invites: created.invites || [],  // only the seats chosen as yours
        seats: Object.fromEntries((created.seats || []).filter((s) => mine.includes(s.seat)).map((s) => [s.seat, s.token])) });
      location.hash = `#/game/${created.game}`;
    } catch (error) {
      this.message.textContent = problemText(error);
      form.querySelector("button").disabled = false;
    }
  }
}

// One line per seat over the versions; the sources of each seat's final score on hover.
export function scoreChart(score, at, kind) {
  const timeline = (score && score.timeline) || [];
  const seats = (score && score.seats) || [];
  const W = 320, H = 160, P = 24;
  const last = Math.max(at || 1, ...timeline.map((t) => t.version), 1);
  const top = Math.max(1, ...timeline.flatMap((t) => t.scores).filter((v) => typeof v === "number"));
  const x = (v) => P + ((W - 2 * P) * v) / last, y = (s) => H - P - ((H - 2 * P) * s) / top;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Scores over the game");
  const add = (name, attrs, text) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  add("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, class: "axis" });
  add("line", { x1: P, y1: P, x2: P, y2: H - P, class: "axis" });
  add("text", { x: P, y: P - 8, class: "axis-label" }, String(top));
  seats.forEach((s, seat) => {
    // a score the viewer may not see (a game with secret VP) is null: no point there
    const known = timeline.filter((t) => typeof t.scores[seat] === "number");
    const points = known.map((t) => `${x(t.version)},${y(t.scores[seat])}`);
    if (known.length) points.push(`${x(last)},${y(known[known.length - 1].scores[seat])}`);
    const line = add("polyline", { points: points.join(" "), fill: "none", stroke: SEAT_COLORS[seat], "stroke-width": 2,
      "stroke-dasharray": ["", "6 3", "2 3", "8 3 2 3"][seat] || "", class: `score-line seat-${seat}` });
    // each game names its sources: a number, or points by round or type (summed here)
    const amount = (v) => (typeof v === "number" ? v : v && typeof v === "object" ? Object.values(v).reduce((a, b) => a + (Number(b) || 0), 0) : null);
    const sources = Object.entries(s).filter(([k, v]) => amount(v) !== null && !["seat", "total", "carried_over"].includes(k))
      .map(([k, v]) => `${fieldName(kind, k)} ${amount(v)}`).join(", ");
    const title = document.createElementNS(NS, "title");
    title.textContent = s.total === null || s.total === undefined ? `${seatName(seat)}: secret` : `${seatName(seat)}: ${s.total} (${sources})`;
    line.appendChild(title);
    const end = known.length ? known[known.length - 1].scores[seat] : 0;
    add("text", { x: W - P + 2, y: y(end), class: "axis-label" }, SEAT_LETTERS[seat]);
  });
  if (at) add("line", { x1: x(at), y1: P, x2: x(at), y2: H - P, class: "now" });
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = "Scores over the game (hover a line for its sources)";
  figure.append(svg, caption);
  return figure;
}
