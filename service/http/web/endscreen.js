// The end of a game: the ranking (ties share a place), the tie-break in words as each game's rules
// apply it, each seat's score breakdown (the score read model), and Rematch: one new game for every
// seat of this one (POST /games/{id}/rematch), opened with the caller's new seat.

import { change, remember } from "./api.js";
import { seatName } from "./board.js";
import { h, problemText, swatch, who } from "./dom.js";
import { anyName, fieldName } from "./glossary.js";
import { cardName } from "./pantheon-cards.js";

const names = (seats) => seats.map(seatName).join(" and ");
const points = (n) => `${n} point${n === 1 ? "" : "s"}`;

// Each game's tie-break (its rules' end of game): the key that orders seats tied on points, and
// the sentence that says how a tie of `seats` (on `score`) was settled.
const TIE_BREAKS = {
  pantheon: {  // most points, then most half-god tiles (their number, not their value); then shared
    key: (o, seat) => (o.half_gods || [])[seat] || 0,
    words(o, seats, score) {
      const held = seats.map((s) => `${seatName(s)} ${o.half_gods[s]}`).join(", ");
      const same = new Set(seats.map((s) => o.half_gods[s])).size === 1;
      return same ? `${names(seats)} tied on ${points(score)} and hold as many half gods (${o.half_gods[seats[0]]}): they share the place.`
        : `${names(seats)} tied on ${points(score)}; the tie goes to whoever holds more half-god tiles: ${held}.`;
    },
  },
  pergamon: {  // most VP, then the older oldest exhibited object (R21); then shared
    key: (o, seat) => -((o.places || [])[seat] || 0),
    words(o, seats, score) {
      const same = new Set(seats.map((s) => o.places[s])).size === 1;
      const order = [...seats].sort((a, b) => o.places[a] - o.places[b]);
      return same ? `${names(seats)} tied on ${score} VP and on their oldest exhibited objects: they share the place.`
        : `${names(seats)} tied on ${score} VP; the older oldest exhibited object breaks the tie: ${order.map(seatName).join(" ahead of ")}.`;
    },
  },
  pantheon_cards: {  // a tie for the most points is fought out in the Battle of Pantheons
    key: (o, seat) => ((o.winners || []).includes(seat) ? 1 : 0),
    // a battle that found a winner leaves no tie in the final scores: say that it was fought
    decided: (o) => (o.reason === "battle_of_pantheons" ? `The seats tied for the most points fought the Battle of `
      + `Pantheons, and ${names(o.winners)} won it (the scores are as the battle left them).` : null),
    words(o, seats, score) {
      if (!seats.some((s) => o.winners.includes(s))) return `${names(seats)} tied on ${points(score)}: they share the place.`;
      const why = o.reason === "no_power" ? "no tied seat had a god power left to use" : "it reached its turn limit";
      return `${names(seats)} tied on ${points(score)}; the Battle of Pantheons ended in a draw (${why}): they share the victory.`;
    },
  },
};
const NO_TIE_BREAK = { key: () => 0, words: (o, seats, score) => `${names(seats)} tied on ${points(score)}: they share the place.` };

// Seats in order with their places: more points first, then the game's tie-break; equal seats share;
// `last`: a seat whose turn clock ran out and forfeited the game (docs/clocks.md), ranked last.
export function ranking(kind, outcome, last = null) {
  const rule = TIE_BREAKS[kind] || NO_TIE_BREAK;
  const scores = outcome.scores || [];
  const key = (s) => [scores[s], rule.key(outcome, s)];
  const better = (a, b) => key(a)[0] > key(b)[0] || (key(a)[0] === key(b)[0] && key(a)[1] > key(b)[1]);
  const seats = scores.map((_, s) => s);
  const place = (s) => (s === last ? seats.length : 1 + seats.filter((o) => o !== last && better(o, s)).length);
  return seats.map((s) => ({ seat: s, score: scores[s], place: place(s) })).sort((a, b) => a.place - b.place || a.seat - b.seat);
}

// The sentences for each group of seats tied on points, and a tie settled during the game (none: no tie).
export function tieBreaks(kind, outcome) {
  const rule = TIE_BREAKS[kind] || NO_TIE_BREAK;
  const byScore = new Map();
  (outcome.scores || []).forEach((score, seat) => byScore.set(score, [...(byScore.get(score) || []), seat]));
  const decided = rule.decided ? rule.decided(outcome) : null;
  return [...(decided ? [decided] : []), ...[...byScore].filter(([, seats]) => seats.length > 1)
    .sort((a, b) => b[0] - a[0]).map(([score, seats]) => rule.words(outcome, seats, score))];
}

// A seat's score breakdown in words, from whatever the game's score view says of it: an id the
// game's glossary knows by its name, a card's id by its name.
const named = (kind) => (v) => (typeof v === "string" && anyName(kind, v)) || (/^[a-z]+\.[a-z0-9_.]+$/.test(String(v)) ? cardName(v) : String(v));
const LABELS = { doubled: "doubled: every god of one pantheon" };
const SKIPPED = new Set(["seat", "total", "scorings", "gods_by_epoch", "gods_by_source"]);
export function breakdown(row, kind) {
  const parts = [];
  for (const [field, value] of Object.entries(row || {})) {
    const label = LABELS[field] || fieldName(kind, field);
    if (SKIPPED.has(field) || value === null || value === false || value === 0) continue;
    if (typeof value === "number") parts.push(`${label} ${value}`);
    else if (value === true) parts.push(label);
    else if (Array.isArray(value) && value.length && value.every((v) => typeof v !== "object")) parts.push(`${label}: ${value.map(named(kind)).join(", ")}`);
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      const sum = Object.values(value).reduce((a, b) => a + (Number(b) || 0), 0);
      if (sum) parts.push(`${label} ${sum}`);
    }
  }
  return parts.join(" · ");
}

// The end screen of `detail` (a finished game's status), with its score view `score` (may be null);
// `held`: the seat tokens this browser holds of the game (seat -> token), `admin`: its admin token.
export function endScreen({ detail, score, seat, game, held, admin, onError }) {
  const outcome = detail.outcome || {};
  const rows = (score && score.view && score.view.seats) || [];
  const winners = outcome.winners || [];
  const forfeited = detail.clock && detail.clock.forfeited !== undefined ? detail.clock.forfeited : null;
  const places = ranking(detail.kind, outcome, forfeited);
  const shared = (p) => places.filter((r) => r.place === p).length > 1;
  const list = h("ol", { class: "ranking", "data-testid": "outcome", "data-scores": (outcome.scores || []).join(",") },
    places.map((r) => h("li", { "data-seat": r.seat, "data-place": r.place },
      h("span", { class: "place" }, `${r.place}${shared(r.place) ? "=" : ""}.`), " ", swatch(r.seat),
      ` ${who(r.seat, detail, seat)}: `, h("strong", {}, String(r.score)),
      h("span", { class: "breakdown" }, breakdown(rows.find((row) => row.seat === r.seat), detail.kind)))));
  const verdict = winners.length > 1 ? `${names(winners)} share the victory.` : winners.length ? `${seatName(winners[0])} wins.` : "";
  const out = [h("h2", {}, "The game has ended"), h("p", { class: "verdict" }, verdict),
    forfeited !== null ? h("p", {}, `${seatName(forfeited)}'s time ran out: the game ended, ${seatName(forfeited)} ranked last.`) : null, list,
    ...tieBreaks(detail.kind, outcome).map((line) => h("p", { class: "tie-break", "data-testid": "tie-break" }, line))];
  if (Object.keys(held).length) out.push(h("p", {}, h("button", { type: "button", "data-testid": "rematch", onclick: (e) => rematch(e.target) }, "Rematch")));
  async function rematch(button) {  // for every seat of this game held here; the admin's token is the rematch's too
    button.disabled = true;
    try {
      let next;
      for (const token of Object.values(held)) {
        next = await change("POST", `games/${game}/rematch`, { token });
        remember(next.game, { seats: { [next.seat]: next.token }, ...(admin ? { admin } : {}) });
      }
      location.hash = `#/game/${next.game}`;
    } catch (error) { onError(problemText(error)); button.disabled = false; }
  }
  return h("section", { class: "end-screen", "data-testid": "end-screen", "aria-label": "The end of the game" }, ...out);
}
