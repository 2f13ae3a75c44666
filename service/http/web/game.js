// The game page: play your seat by clicking choices (on the board, the open cards, your hand or
// the list), or watch as a spectator; live through the event stream.

import { endAlerts, turnAlert } from "./alerts.js";
import { adminToken, change, follow, get, mySeat, saved } from "./api.js";
import { seatName } from "./board.js";
import { ClockView } from "./clock.js";
import { h, problemText, who } from "./dom.js";
import { endScreen } from "./endscreen.js";
import { forKind, kindTitle } from "./kinds.js";
import { MoveLog } from "./movelog.js";
import { describe, glossary, rulesLink } from "./glossary.js";
import { named, useNames } from "./names.js";
import { seatTools } from "./seats.js";
import { zoomControls } from "./zoom.js";

export class GamePage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    [this.seat, this.token] = mySeat(game);
    this.admin = adminToken(game);
    this.abort = new AbortController();
    this.clocks = new ClockView(game);  // each clocked seat's time left
    this.stack = [];  // options answers: the root, then one per `next` followed
    this.path = [];  // the choices taken so far in the command being built
    this.busy = false;  // a request of ours is in flight: no choice is clickable
    this.running = null;
    this.again = false;
    this.finished = false;
  }

  stop() { this.abort.abort(); clearTimeout(this.retry); this.clocks.stop(); endAlerts(); }

  async start() {
    this.detail = await get(`games/${this.game}`);
    useNames(this.detail);
    const edition = (this.detail.options || {}).edition;
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.message = h("p", { class: "message", role: "alert" });
    this.boardHost = h("div", { class: "board-host" });
    this.controls = h("section", { class: "choices", "aria-label": "Your choices", tabindex: "-1" });
    this.side = h("div", { class: "side" });
    this.outcome = h("div");
    this.seatsHost = h("div", { class: "seats-host" });
    this.log = new MoveLog(this.game, this.token, this.seat);
    this.kind = forKind(this.detail.kind);  // the game's own board and panels
    this.board = new this.kind.Board(this.boardHost, (choice) => this.pick(choice));
    const held = Object.keys((saved()[this.game] || {}).seats || {}).map(Number);
    const role = held.length ? `you play ${held.map(seatName).join(" and ")}` : "you are watching";
    this.root.replaceChildren(
      h("h1", {}, `Game ${this.game}`, h("small", {}, ` · ${kindTitle(this.detail.kind)} · ${role}`)),
      h("nav", { class: "game-links", "aria-label": "This game" },
        h("a", { href: `#/replay/${this.game}` }, "Replay"), " ",
        h("a", { href: `#/audit/${this.game}` }, "Audit"), " ", rulesLink(this.detail.kind)),
      this.status, this.clocks.root, this.outcome, this.message,
      h("div", { class: "play" }, h("div", {}, zoomControls(this.boardHost), this.boardHost), h("div", { class: "panel" }, this.controls, this.side, this.log.root)),
      this.seatsHost);
    this.drawSeats();
    await Promise.all([edition ? this.board.load(this.detail.kind, edition) : null, glossary(this.detail.kind)]);
    await this.refresh();
    await this.log.load(this.detail.version).catch(() => {});  // the log is an aid: the game plays without it
    follow(this.game, this.token, this.detail.version, (event, reset) => {
      if (event) this.latest = Math.max(this.latest || 0, event.version);
      if (event) this.log.add(event);
      else this.log.load(this.latest || 0).catch(() => {});  // events may have been missed or replaced
      if (reset !== undefined) this.latest = Math.min(this.latest || 0, reset);  // the lost versions are gone
      if (!this.sending) this.refresh();  // our own command's events: its answer reads them
    }, this.abort.signal, () => this.finished);
  }

  // Read the game again (coalesced: one read at a time, and one more if asked meanwhile).
  async refresh(minVersion = 0) {
    if (this.running) { this.again = true; return this.running; }
    this.running = (async () => {
      do {
        this.again = false;
        try { await this.load(minVersion); } catch (error) {
          if (this.abort.signal.aborted) return;
          this.message.textContent = problemText(error);
          clearTimeout(this.retry);  // the network or server away: read again soon
          this.retry = setTimeout(() => this.refresh(), 2000);
        }
      } while (this.again && !this.abort.signal.aborted);
    })();
    try { await this.running; } finally { this.running = null; }
  }

  async load(minVersion) {
    // the view is read from a read model, which may trail the events: ask for at least the
    // newest version the stream or a command's answer has told of
    const least = Math.max(minVersion, this.latest || 0);
    const params = least ? { min_version: String(least) } : undefined;
    const signal = this.abort.signal;
    // the game, our view and our choices (a seat's, while the game runs) in one read, at one version
    const page = await get(`games/${this.game}/page`, { token: this.token, params, signal });
    const [detail, view, options] = [page.game, page.view, page.choices];
    this.detail = detail;
    useNames(detail);
    this.clocks.update(detail, this.seat);
    this.view = view;
    this.finished = detail.finished;
    this.drawSeats();  // seats handed to the AI or taken back change no version: drawn from every read
    const held = (saved()[this.game] || {}).seats || {};
    const awaited = detail.awaiting ? detail.awaiting.seat : null;
    if (awaited !== null && awaited !== this.seat && held[awaited]) {  // more than one seat here: play the awaited one
      [this.seat, this.token, this.stack, this.path] = [awaited, held[awaited], [], []];
      this.again = true;
      return;
    }
    if (this.message.textContent.startsWith("The server could not be reached")) this.message.textContent = "";
    if (options && (!this.stack.length || this.stack[0].version !== options.version)) {
      this.stack = [options];
      this.path = [];
    }
    if (detail.finished) { this.stack = []; this.path = []; }
    if (detail.finished && !this.score) {  // the end screen's breakdown: an aid, the end screen shows without it
      this.score = await get(`games/${this.game}/score`, { signal }).catch(() => null);
    }
    const shown = `${detail.version}|${view.version}|${this.stack.length}|${this.current() ? this.current().version : ""}`;
    if (shown !== this.shown) this.render();  // a stream echo of what is shown draws nothing again
    this.shown = shown;
  }

  current() { return this.stack[this.stack.length - 1]; }

  myTurn() {
    const options = this.current();
    return Boolean(options && options.decision && options.choices.length && !this.finished);
  }

  render() {
    this.shown = null;
    const view = this.view.view;
    const active = this.myTurn() && !this.busy;
    const options = this.current();
    const focused = this.controls.contains(document.activeElement) || this.boardHost.contains(document.activeElement);
    this.board.draw(view, active ? options.choices : [], this.path, active, this.seat);
    this.status.textContent = this.statusWords();
    this.controls.replaceChildren(...this.choicePanel(active));
    if (focused) this.refocus();  // a choice taken with the keyboard: the next is a Tab away, not the page's top
    turnAlert(this.myTurn(), `Game ${this.game} · ${kindTitle(this.detail.kind)}`);
    this.side.replaceChildren(...this.kind.panels(view, { detail: this.detail, seat: this.seat, path: this.path,
      choices: active ? options.choices : [], pick: (choice) => this.pick(choice) }), this.rejectedLog());
    this.outcome.replaceChildren(...(this.finished ? [this.outcomePanel()] : []));
    document.body.dataset.version = String(this.view.version);
  }

  statusWords() {
    const d = this.detail;
    if (d.finished) return "The game has ended.";
    if (!d.awaiting) return "Waiting…";
    if (d.awaiting.seat === this.seat) return `Your turn (${seatName(this.seat)}): ${this.current() ? named(this.current().prompt) : d.awaiting.decision}`;
    return `Waiting for ${who(d.awaiting.seat, d, this.seat)} to decide: ${d.awaiting.decision.replace(/_/g, " ")}.`;
  }

  choicePanel(active) {
    const options = this.current();
    if (!this.token || this.finished) return [];
    if (!options || !options.decision) return [h("p", {}, "Not your turn: other players' moves appear here as they happen.")];
    const out = [h("h2", {}, "Your move"), h("p", { class: "prompt" }, named(options.prompt))];
    if (this.path.length) {
      out.push(h("ol", { class: "path", "aria-label": "Your move so far" }, this.path.map((c) => h("li", {}, named(c.label)))),
        h("p", {}, h("button", { type: "button", class: "undo", onclick: () => this.undo(), disabled: this.busy },
          "Undo last step"), " ",
          h("button", { type: "button", class: "undo", onclick: () => this.undo(true), disabled: this.busy }, "Start over")));
    }
    out.push(h("ul", { class: "choice-list", tabindex: "-1" }, options.choices.map((choice) => h("li", {},
      h("button", { type: "button", class: choice.command ? "final" : "step", disabled: !active,
        "data-choice": active ? choice.key : null, title: describe(this.detail.kind, choice),
        onclick: () => this.pick(choice) }, named(choice.label))))));
    return out;
  }

  // Focus the first choice that can be taken (else the list, else the panel): where a keyboard
  // player's focus was, so the next move starts there.
  refocus() {
    const target = this.controls.querySelector(".choice-list button:not(:disabled)")
      || this.controls.querySelector(".choice-list") || this.controls;
    target.focus();
  }

  outcomePanel() {
    const held = (saved()[this.game] || {}).seats || {};
    return endScreen({ detail: this.detail, score: this.score, seat: this.seat, game: this.game, held,
      admin: this.admin, onError: (text) => { this.message.textContent = text; } });
  }

  lock() {  // at once, before any request: nothing can be clicked twice
    this.busy = true;
    const list = this.controls.querySelector(".choice-list");  // focus stays here while the choices are disabled
    if (list && (this.controls.contains(document.activeElement) || this.boardHost.contains(document.activeElement))) list.focus();
    for (const node of this.root.querySelectorAll("[data-choice]")) {
      node.removeAttribute("data-choice");
      if ("disabled" in node) node.disabled = true;
    }
  }

  async pick(choice) {
    if (this.busy || !this.myTurn()) return;
    this.lock();
    this.message.textContent = "";
    try {
      if (choice.command) return await this.send(choice);
      const next = await get(`games/${this.game}/options`, { token: this.token, params: { after: choice.next } });
      this.stack.push(next);
      this.path.push(choice);
    } catch (error) {
      this.message.textContent = problemText(error);
      this.stack = [];
    } finally {
      this.busy = false;
    }
    if (!this.stack.length) await this.refresh(); else this.render();
  }

  async send(choice) {
    // the command exactly as the server offered it: nothing added, nothing removed
    this.sending = true;
    let done;
    try {
      done = await change("POST", `games/${this.game}/commands`, { token: this.token, body: choice.command });
    } finally {
      this.sending = false;
    }
    this.latest = Math.max(this.latest || 0, done.version);
    const answered = performance.now();
    window.__pantheonSent = (window.__pantheonSent || 0) + 1;
    this.busy = false;
    this.stack = [];
    this.path = [];
    await this.refresh(done.version);
    window.__pantheonLastUpdateMs = performance.now() - answered;  // for tests/bench
  }

  undo(all = false) {
    if (this.busy) return;
    const keep = all ? 1 : Math.max(1, this.stack.length - 1);
    this.stack = this.stack.slice(0, keep);
    this.path = this.path.slice(0, keep - 1);
    this.render();
  }

  // The refused commands of this game (a seat sees its own in full).
  rejectedLog() {
    const body = h("div");
    const details = h("details", { class: "rejected" }, h("summary", {}, "Refused commands"), body);
    details.addEventListener("toggle", async () => {
      if (!details.open) return;
      try {
        const rows = await get(`games/${this.game}/rejected`, { token: this.token });
        body.replaceChildren(rows.length ? h("ul", {}, rows.map((r) => h("li", {},
          `${new Date(r.at).toLocaleTimeString()} · ${r.seat === null ? "?" : seatName(r.seat)} · ${r.code}${r.message ? `: ${r.message}` : ""}`)))
          : h("p", {}, "No command of this game was refused."));
      } catch (error) { body.textContent = problemText(error); }
    });
    if (this.rejectedOpen) details.open = true;
    details.addEventListener("toggle", () => { this.rejectedOpen = details.open; });
    return details;
  }

  // The seat buttons, drawn again only when what they show changed (a focused button stays).
  drawSeats() {
    const drawn = JSON.stringify([(this.detail.seats || []).map((s) => [s.type, s.name, s.claimed]), this.detail.finished,
      (saved()[this.game] || {}).invites || []]);
    if (drawn === this.seatsDrawn) return;
    this.seatsDrawn = drawn;
    this.seatsHost.replaceChildren(this.seatAdmin());
  }

  // Hand a seat to the AI / take it back; invite links (for the admin).
  seatAdmin() {
    const entry = saved()[this.game] || {};
    const rows = [];
    for (const seat of this.detail.seats || []) {
      const mine = String(seat.seat) in (entry.seats || {});
      const buttons = [];
      if (this.admin && seat.type === "human" && !this.detail.finished) {
        buttons.push(h("button", { type: "button", onclick: () => this.seatChange("POST", seat.seat) }, `Hand ${seatName(seat.seat)} to the AI`));
      }
      if ((this.admin || mine) && seat.type === "ai" && !this.detail.finished) {
        buttons.push(h("button", { type: "button", onclick: () => this.seatChange("DELETE", seat.seat) }, `Take ${seatName(seat.seat)} back`));
      }
      if (buttons.length) rows.push(h("li", {}, ...buttons));
    }
    const invites = (entry.invites || []).map((i) => {
      const link = `${location.origin}${location.pathname}#invite=${this.game}.${i.seat}.${i.code}`;
      return h("li", {}, `Invite for ${seatName(i.seat)}: `, h("input", { readonly: true, value: link, size: 60,
        "aria-label": `Invite link for ${seatName(i.seat)}` }));
    });
    const tools = seatTools(this);
    if (!rows.length && !invites.length && !tools.length) return h("div");
    return h("section", { class: "seat-admin", "aria-label": "Seats" }, h("h2", {}, "Seats"),
      h("ul", {}, invites, rows), tools);
  }

  async seatChange(method, seat) {
    const token = method === "DELETE" && String(seat) in ((saved()[this.game] || {}).seats || {}) ? mySeat(this.game)[1] : this.admin;
    try {
      await change(method, `games/${this.game}/seats/${seat}/ai`, { token, body: method === "POST" ? { level: "greedy" } : undefined });
      this.message.textContent = method === "POST" ? `${seatName(seat)} is played by the AI now.` : `${seatName(seat)} is yours again.`;
      this.stack = [];
      await this.refresh();  // draws the seats as the server now has them (and again if that read failed)
    } catch (error) { this.message.textContent = problemText(error); }
  }
}
