// A game kind's words for its ids, from the server (GET kinds/{kind}/glossary): every component,
// hex, option and value with a name and a one-line description, and the rules in short. Loaded
// once per kind (`glossary(kind)`); `termName` and `describe` then answer at once, so drawing
// code stays synchronous. Until it has loaded (or if it cannot be read) ids are shown as words.

import { get } from "./api.js";
import { h } from "./dom.js";

const asked = new Map();  // kind -> promise of its glossary (null if it could not be read)
const indexed = new Map();  // kind -> Map(group -> Map(id -> term))

export function glossary(kind) {
  if (!asked.has(kind)) {
    asked.set(kind, get(`kinds/${kind}/glossary`).then((g) => {
      indexed.set(kind, new Map(g.groups.map((group) => [group.group, new Map(group.terms.map((t) => [t.id, t]))])));
      return g;
    }).catch(() => { asked.delete(kind); return null; }));  // an aid: the page works without it
  }
  return asked.get(kind);
}

const fallback = (id) => String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

// The term for `id` in `group` of `kind` (a hex's id is "q,r"), or null.
export function term(kind, group, id) {
  const groups = indexed.get(kind);
  return (groups && groups.get(group) && groups.get(group).get(String(id))) || null;
}

// The display name of `id` in `group` ("Traitera (needs 4-1)"), or the id in words.
export function termName(kind, group, id) {
  const found = term(kind, group, id);
  return found ? found.name : fallback(id);
}

// The name of `id` in whichever group of `kind` holds it (the first), or null.
export function anyName(kind, id) {
  const groups = indexed.get(kind);
  for (const terms of (groups ? groups.values() : [])) if (terms.has(String(id))) return terms.get(String(id)).name;
  return null;
}

// A field of a game's answer as a label: the glossary's name if the field is one of its ids (a
// score's "pietalte" is the god Pietalte), else the field in words ("half gods").
export const fieldName = (kind, field) => anyName(kind, field) || String(field).replace(/_/g, " ");

// "Name: description" for `id` in `group`, for a tooltip ("" when the glossary lacks it).
export function termTitle(kind, group, id) {
  const found = term(kind, group, id);
  return found ? `${found.name}: ${found.description}` : "";
}

// A choice's tooltip: its label, then what each thing it names is ("Traitera (needs 4-1): spend
// it after an action to take one more action."), found by the ids its `refers` holds.
export function describe(kind, choice) {
  const groups = indexed.get(kind);
  const lines = [choice.label];
  if (!groups || !choice.refers) return choice.label;
  for (const value of Object.values(choice.refers)) {
    const id = Array.isArray(value) && value.length === 2 ? value.join(",") : value;
    if (typeof id !== "string" && typeof id !== "number") continue;
    for (const terms of groups.values()) {
      const found = terms.get(String(id));
      if (found && !lines.includes(`${found.name}: ${found.description}`)) {
        lines.push(`${found.name}: ${found.description}`);
        break;
      }
    }
  }
  return lines.join("\n");
}

// A link to the kind's rules page.
export function rulesLink(kind) {
  return h("a", { href: `#/rules/${kind}`, class: "rules-link", "data-testid": "rules-link" }, "Rules");
}

// #/rules/<kind>: the game's rules in short and its glossary, from the server.
export async function rulesPage(root, kind) {
  const g = await glossary(kind);
  if (!g) throw new Error(`no rules for the game "${kind}"`);
  const options = g.options.map((o) => h("li", {}, h("strong", {}, o.name), `: ${o.description} `,
    h("span", {}, o.values.map((v) => `${v.name} (${v.description.replace(/\.$/, "")})`).join("; "))));
  const groups = g.groups.filter((group) => group.group !== "hexes").map((group) => h("details", {},
    h("summary", {}, `${group.name} (${group.terms.length})`),
    h("dl", {}, group.terms.flatMap((t) => [h("dt", {}, t.name), h("dd", {}, t.description)]))));
  root.replaceChildren(h("article", { class: "rules", "data-testid": "rules" },
    h("h1", {}, `${g.name}: the rules in short`), h("p", { class: "summary" }, g.summary),
    ...g.rules.flatMap((s) => [h("h2", {}, s.heading), ...s.paragraphs.map((p) => h("p", {}, p))]),
    h("h2", {}, "Options"), h("ul", {}, options),
    h("h2", {}, "Names"), ...groups,
    h("p", {}, h("a", { href: "#/new" }, "New game"), " · ", h("a", { href: "#/" }, "Lobby"))));
}
