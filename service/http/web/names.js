// Players' display names: the names the game's seats chose (GET /games/{id}: seats[].name), used
// wherever the page names a seat (board.js's seatName) instead of "Player B". A name is untrusted
// text: it only ever reaches the page as text (h() and el() append strings as text nodes, and
// textContent), never as markup or an attribute that runs anything.

const names = new Map();  // seat -> name, of the game the page shows
const KEY = "pantheon.name";  // the name this browser last chose, offered again

// The names of `detail`'s game (none for a page without a game: the lobby, a new game).
export function useNames(detail) {
  names.clear();
  for (const s of (detail && detail.seats) || []) if (s.name) names.set(s.seat, s.name);
}

export const nameOf = (seat) => names.get(seat) || null;

// A text the server wrote with seat labels ("Play Famine on Player B") with the seats' names.
export const named = (text) => String(text).replace(/\bPlayer ([A-Z])\b/g, (label, letter) =>
  names.get(letter.charCodeAt(0) - 65) || label);

export function savedName() {
  try { return localStorage.getItem(KEY) || ""; } catch { return ""; }
}

export function rememberName(name) {
  try { if (name) localStorage.setItem(KEY, name); } catch { /* storage full or refused: offered no more */ }
}

// The name field of the new-game form, a join and a rename: the server checks the name.
export function nameInput(attrs = {}) {
  const input = document.createElement("input");
  Object.assign(input, { type: "text", name: "player-name", autocomplete: "nickname", spellcheck: false, value: savedName() });
  input.setAttribute("data-testid", "player-name");
  input.setAttribute("maxlength", "64");  // the server counts 24 characters once normalised
  for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
  return input;
}
