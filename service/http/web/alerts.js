// Turn alerts: the tab's title says "Your turn — …" while the page's seat is awaited; an optional
// beep when the turn comes (off by default; the choice kept in this browser), made with WebAudio
// (no sound file); the lobby's "Your games" marks the games that wait for you.

import { get } from "./api.js";
import { h } from "./dom.js";

const SOUND = "pantheon.sound";  // "on" when the beep is wanted
let audio = null;  // made on the toggle's click: browsers let a page play sound only after a gesture
let waiting = false;  // the page's seat was awaited at the last alert

export const soundOn = () => { try { return localStorage.getItem(SOUND) === "on"; } catch { return false; } };

// The toggle: a button that says what it does, pressed (aria-pressed) while the beep is on.
export function soundToggle() {
  const button = h("button", { type: "button", class: "sound", "data-testid": "sound-toggle" });
  const draw = () => {
    button.textContent = soundOn() ? "Sound on your turn: on" : "Sound on your turn: off";
    button.setAttribute("aria-pressed", String(soundOn()));
  };
  button.addEventListener("click", () => {
    try { localStorage.setItem(SOUND, soundOn() ? "off" : "on"); } catch { /* kept for this page only */ }
    if (soundOn()) beep();  // at once, so the player hears what it will sound like
    draw();
  });
  draw();
  return button;
}

function beep() {
  try {
    audio ||= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    window.__pantheonBeeps = (window.__pantheonBeeps || 0) + 1;  // for tests
  } catch { /* no audio here: the title still says it */ }
}

// Call on every drawing of a game page: `mine` whether its seat is awaited now, `title` the tab's
// title otherwise. Beeps once when the turn comes, if the player asked for it.
export function turnAlert(mine, title) {
  document.title = mine ? `Your turn — ${title}` : title;
  if (mine && !waiting && soundOn()) beep();
  waiting = mine;
}

export function endAlerts() { waiting = false; document.title = "Pantheon"; }

// Mark each game of `entries` ([id, saved entry]) whose awaited seat this browser holds: the
// lobby's list item of the game (`items`, by id) gets "your turn" and data-your-turn.
export async function markWaiting(entries, items) {
  await Promise.all(entries.map(async ([game, entry]) => {
    const detail = await get(`games/${game}`).catch(() => null);
    const seat = detail && !detail.finished && detail.awaiting ? detail.awaiting.seat : null;
    const item = items.get(game);
    if (seat === null || !item || !(String(seat) in (entry.seats || {}))) return;
    item.dataset.yourTurn = "true";
    item.classList.add("your-turn");
    item.append(h("strong", {}, " · your turn"));
  }));
}
