// The audit report of a game as a page, with the export file to download.

import { get } from "./api.js";
import { h, problemText } from "./dom.js";

export async function auditPage(root, game) {
  root.replaceChildren(h("h1", {}, `Audit of ${game}`), h("p", {}, "Checking every event…"));
  try {
    const [report, detail] = await Promise.all([get(`games/${game}/audit`), get(`games/${game}`)]);
    const mark = (ok) => (ok === true ? "✔ passed" : ok === false ? "✘ failed" : "– not yet");
    root.replaceChildren(
      h("h1", {}, `Audit of ${game}`),
      h("nav", { class: "game-links", "aria-label": "This game" }, h("a", { href: `#/game/${game}` }, "Game"), " ",
        h("a", { href: `#/replay/${game}` }, "Replay"), " ",
        detail.finished && detail.seed
          ? h("a", { href: `games/${game}/export`, download: `${game}.jsonl`, class: "export" }, "Download the export file")
          : h("span", {}, "The export can be downloaded once the game has ended.")),
      h("p", { class: `verdict ${report.ok ? "ok" : "bad"}`, "data-testid": "audit-verdict" },
        report.ok ? `Valid: all checks passed over ${report.events} events.`
          : `Not valid: first failure at event ${report.first_failure ?? "?"}.`),
      h("table", { class: "checks" }, h("caption", {}, "Checks"),
        h("thead", {}, h("tr", {}, ["Check", "Result", "Detail", "First failing event"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, report.checks.map((c) => h("tr", { class: c.ok === false ? "bad" : "" },
          h("th", { scope: "row" }, c.name.replace(/_/g, " ")), h("td", {}, mark(c.ok)), h("td", {}, c.detail),
          h("td", {}, c.first_failure ?? "–"))))),
      h("h2", {}, "Who did what, and the scores after every event"),
      h("ol", { class: "story" }, report.story.map((line) => h("li", {}, line))));
  } catch (error) {
    root.replaceChildren(h("h1", {}, `Audit of ${game}`), h("p", { class: "message", role: "alert" }, problemText(error)));
  }
}
