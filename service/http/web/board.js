// What every game's board shares: the player colours and letters, the edition's SVG from the
// server, SVG elements; and the per-kind module (its board and panels) chosen by the game's kind.

import { nameOf } from "./names.js";

export const NS = "http://www.w3.org/2000/svg";
const boards = new Map();
export const SEAT_COLORS = ["#d62828", "#1f5fd6", "#f2c500", "#2a9d3a", "#8e44ad", "#e07b00"];
export const SEAT_LETTERS = ["A", "B", "C", "D", "E", "F"];  // six: the card game seats up to six
// a seat as the page names it: its player's name (names.js), or "Player B"
export const seatName = (seat) => nameOf(seat) || `Player ${SEAT_LETTERS[seat] || seat + 1}`;

export async function boardText(kind, edition) {
  const key = `${kind}/${edition}`;
  if (!boards.has(key)) boards.set(key, fetch(`web/boards/${key}.svg`).then((r) => r.text()));
  return boards.get(key);
}

// The edition's board as an <svg class="board"> element, sized by its container.
export async function boardSvg(kind, edition) {
  const doc = new DOMParser().parseFromString(await boardText(kind, edition), "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "The board");
  svg.classList.add("board");
  return svg;
}

export function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A clickable SVG shape for a choice: named, reachable by keyboard, Enter or Space picks it.
export function choiceShape(node, choice, onChoice) {
  node.setAttribute("data-choice", choice.key);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", choice.label);
  node.appendChild(el("title", {}, choice.label));
  node.addEventListener("click", () => onChoice(choice));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onChoice(choice); }
  });
  return node;
}
