// The move log: every event of the game in words (the server's `text`, written for this viewer),
// newest first; the opponents' last move highlighted. Other seats' moves (an AI answers in a
// fraction of a second) are shown one command at a time, PACE_MS apart, so a player can follow.

import { get } from "./api.js";
import { h } from "./dom.js";

const PACE_MS = 600;  // between two commands of other seats
const HISTORY = 40;  // events read when the page opens

export class MoveLog {
  constructor(game, token, seat) {
    [this.game, this.token, this.seat] = [game, token, seat];
    this.list = h("ol", { class: "move-log", "data-testid": "move-log", reversed: true });
    this.root = h("section", { class: "log", "aria-label": "Move log" }, h("h2", {}, "Move log"), this.list);
    this.queue = [];  // commands (lists of events) waiting to be shown
    this.last = 0;  // the newest version shown or queued
    this.timer = null;
  }

  // The recent history, at once (the page opened, or events were lost and replaced).
  async load(version) {
    const after = Math.max(0, version - HISTORY);
    const body = await get(`games/${this.game}/events`, { token: this.token, params: { after: String(after) } });
    const events = Array.isArray(body) ? body : body.events || [];
    this.queue = [];
    clearTimeout(this.timer);
    this.timer = null;
    this.list.replaceChildren();
    this.last = after;
    for (const group of groups(events)) this.show(group);
  }

  // One event from the stream: ours at once, others' queued a command at a time.
  add(event) {
    if (event.version <= this.last) return;
    this.last = event.version;
    const tail = this.queue[this.queue.length - 1];
    if (tail && sameCommand(tail[0], event)) tail.push(event);
    else this.queue.push([event]);
    this.drain();
  }

  drain() {
    if (this.timer) return;
    const group = this.queue.shift();
    if (!group) return;
    this.show(group);
    const others = group[0].seat !== null && group[0].seat !== this.seat;
    this.timer = setTimeout(() => { this.timer = null; this.drain(); }, others && this.queue.length ? PACE_MS : 0);
  }

  show(group) {
    const others = group[0].seat !== null && group[0].seat !== undefined && group[0].seat !== this.seat;
    if (others) for (const old of this.list.querySelectorAll(".latest")) old.classList.remove("latest");
    for (const event of group) {
      const entry = h("li", { class: others ? "log-entry latest" : "log-entry", "data-testid": "log-entry",
        "data-version": String(event.version), "data-type": event.type }, event.text || event.type.replace(/_/g, " "));
      this.list.prepend(entry);
    }
    this.last = Math.max(this.last, group[group.length - 1].version);
  }
}

function sameCommand(a, b) {
  return a.command && a.command === b.command;
}

function groups(events) {
  const out = [];
  for (const event of events) {
    const tail = out[out.length - 1];
    if (tail && sameCommand(tail[0], event)) tail.push(event);
    else out.push([event]);
  }
  return out;
}
