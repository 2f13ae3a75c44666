// The game page's seat tools beyond handing seats to the AI: your seat's name (changed with your
// seat's token), the admin's re-issue of a seat whose player lost their invite or token (a new
// one-time invite link; the old token stops working), and the sound of turn alerts.

import { soundToggle } from "./alerts.js";
import { change, remember, saved } from "./api.js";
import { SEAT_LETTERS, seatName } from "./board.js";
import { h, problemText } from "./dom.js";
import { nameInput, rememberName } from "./names.js";

// `page`: the GamePage ({game, detail, admin, message, refresh()}).
export function seatTools(page) {
  const entry = saved()[page.game] || {};
  const held = entry.seats || {};
  const out = [];
  if (page.detail.finished) return out;
  for (const seat of page.detail.seats || []) {
    if (String(seat.seat) in held && seat.type === "human") out.push(renameForm(page, seat, held[seat.seat]));
  }
  if (page.admin) {
    const lost = (page.detail.seats || []).filter((s) => s.type === "human" && (s.claimed || s.reserved));
    if (lost.length) out.push(h("p", { class: "reissue" }, ...lost.map((s) => reissueButton(page, s.seat))));
  }
  if (Object.keys(held).length) out.push(h("p", {}, soundToggle()));
  return out;
}

function renameForm(page, seat, token) {
  const label = `Player ${SEAT_LETTERS[seat.seat] || seat.seat + 1}`;  // the seat itself, whatever it is called
  const input = nameInput({ "data-testid": "seat-name" });
  input.value = seat.name || input.value;
  const form = h("form", { class: "rename" }, h("label", {}, `Your name (${label}) `, input),
    h("button", { type: "submit" }, "Save name"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const done = await change("PUT", `games/${page.game}/seats/${seat.seat}/name`, { token, body: { name: input.value } });
      rememberName(done.name);
      page.message.textContent = "";
      await page.refresh();
    } catch (error) { page.message.textContent = problemText(error); }
  });
  return h("div", { class: "seat-names" }, form);
}

// Two presses: the first says what will happen (the seat's current token stops working).
function reissueButton(page, seat) {
  const button = h("button", { type: "button", "data-testid": "reissue", "data-seat": seat }, `Re-issue ${seatName(seat)}'s invite`);
  button.addEventListener("click", async () => {
    if (button.dataset.armed !== "true") {
      button.dataset.armed = "true";
      button.textContent = `Press again: ${seatName(seat)}'s current link or token stops working, and a new invite link is made`;
      return;
    }
    try {
      const invite = await change("POST", `games/${page.game}/seats/${seat}/token`, { token: page.admin });
      const invites = ((saved()[page.game] || {}).invites || []).filter((i) => i.seat !== seat);
      remember(page.game, { invites: [...invites, invite] });
      page.message.textContent = `A new invite link for ${seatName(seat)} is under Seats: send it to their player.`;
      page.seatsDrawn = null;
      await page.refresh();
    } catch (error) { page.message.textContent = problemText(error); }
  });
  return button;
}
