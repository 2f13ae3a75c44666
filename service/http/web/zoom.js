// Zoom for the board on a small screen: − and + buttons scale the board inside a scrollable frame
// (pinching zooms the whole page too, as the viewport allows). On a phone the board starts large
// enough that every target on it is at least 44 px (a finger's width), and is panned by scrolling.

import { h } from "./dom.js";

const STEPS = [1, 1.5, 2, 3, 4];
const PHONE = "(max-width: 600px)";
const PHONE_STEP = 3;  // ×3: a Pantheon hex of about 17 px on a 390 px phone becomes about 50 px

export function zoomControls(host) {
  let step = window.matchMedia(PHONE).matches ? PHONE_STEP : 0;
  const out = h("button", { type: "button", class: "zoom", "aria-label": "Zoom the board out" }, "−");
  const into = h("button", { type: "button", class: "zoom", "aria-label": "Zoom the board in" }, "+");
  const shown = h("span", { class: "zoom-level", "aria-live": "polite" });
  const apply = () => {
    host.style.setProperty("--zoom", String(STEPS[step]));  // through the CSSOM: the policy refuses style attributes
    host.classList.toggle("zoomed", step > 0);
    shown.textContent = `×${STEPS[step]}`;
    out.disabled = step === 0;
    into.disabled = step === STEPS.length - 1;
  };
  out.addEventListener("click", () => { step = Math.max(0, step - 1); apply(); });
  into.addEventListener("click", () => { step = Math.min(STEPS.length - 1, step + 1); apply(); });
  apply();
  return h("div", { class: "zoom-controls", role: "group", "aria-label": "Board zoom" }, out, shown, into);
}
