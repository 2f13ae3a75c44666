// The audit report of a game as a page, with the export file to download: every check, a verdict
// ("pending" while the checks that need the end of the game wait for it; "not valid" only when a
// check failed, naming it), and every event in the server's words with the scores after it.

import { get } from "./api.js";
import { SEAT_LETTERS } from "./board.js";
import { eventLine, h, problemText } from "./dom.js";
import { useNames } from "./names.js";

const checkName = (check) => check.name.replace(/_/g, " ");

// A check's result: passed, failed, or (ok null) pending while the game runs, not run once it has ended.
const mark = (ok, finished) => (ok === true ? "✔ passed" : ok === false ? "✘ failed" : finished ? "– not run" : "… pending");

// The verdict's class and sentence: a failed check first, then checks waiting for the end (a
// running game), then checks that could not run (an ended game: e.g. no bots known for its kind).
export function verdict(report, finished) {
  const failed = report.checks.filter((c) => c.ok === false)
    .sort((a, b) => (a.first_failure ?? Infinity) - (b.first_failure ?? Infinity));
  if (failed.length) {
    const first = failed[0];
    const where = first.first_failure ? `first failure at event ${first.first_failure}` : "a check failed";
    return ["bad", `Not valid: ${where} (${checkName(first)}: ${first.detail}).`];
  }
  const open = report.checks.filter((c) => c.ok !== true);
  if (open.length && !finished) {
    return ["pending", `Pending: no check failed over ${report.events} events so far; ` +
      `${open.map(checkName).join(", ")} can be checked once the game has ended.`];
  }
  if (open.length) {
    return ["pending", `No check failed over ${report.events} events, but ${open.map(checkName).join(", ")} ` +
      `could not be run: ${open.map((c) => c.detail).join("; ")}.`];
  }
  return ["ok", `Valid: all checks passed over ${report.events} events.`];
}

const scoreWords = (scores) => (scores.length
  ? scores.map((s, seat) => `${SEAT_LETTERS[seat] || seat + 1} ${s ?? "secret"}`).join(", ") : "none yet");

export async function auditPage(root, game) {
  root.replaceChildren(h("h1", {}, `Audit of ${game}`), h("p", {}, "Checking every event…"));
  try {
    const [report, detail] = await Promise.all([get(`games/${game}/audit`), get(`games/${game}`)]);
    const [verdictClass, verdictText] = verdict(report, detail.finished);
    useNames(detail);
    root.replaceChildren(
      h("h1", {}, `Audit of ${game}`),
      h("nav", { class: "game-links", "aria-label": "This game" }, h("a", { href: `#/game/${game}` }, "Game"), " ",
        h("a", { href: `#/replay/${game}` }, "Replay"), " ",
        detail.finished && detail.seed
          ? h("a", { href: `games/${game}/export`, download: `${game}.jsonl`, class: "export" }, "Download the export file")
          : h("span", {}, "The export can be downloaded once the game has ended.")),
      h("p", { class: `verdict ${verdictClass}`, "data-testid": "audit-verdict" }, verdictText),
      h("table", { class: "checks" }, h("caption", {}, "Checks"),
        h("thead", {}, h("tr", {}, ["Check", "Result", "Detail", "First failing event"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, report.checks.map((c) => h("tr", { class: c.ok === false ? "bad" : c.ok === null ? "pending" : "" },
          h("th", { scope: "row" }, checkName(c)), h("td", {}, mark(c.ok, detail.finished)), h("td", {}, c.detail),
          h("td", {}, c.first_failure ?? "–"))))),
      h("h2", {}, "What happened, and the scores after every event"),
      h("ol", { class: "story" }, report.story_events.map((line) => h("li", { "data-version": String(line.version) },
        eventLine(line.version, line.text), h("span", { class: "scores" }, ` · scores ${scoreWords(line.scores)}`)))));
  } catch (error) {
    root.replaceChildren(h("h1", {}, `Audit of ${game}`), h("p", { class: "message", role: "alert" }, problemText(error)));
  }
}
