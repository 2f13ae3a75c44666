// The web client's router: the part of the address after `#` says the page, so the client
// works under any path prefix and needs no server routes of its own.

import { auditPage } from "./audit.js";
import { h, problemText } from "./dom.js";
import { GamePage } from "./game.js";
import { rulesPage } from "./glossary.js";
import { joinPage, lobbyPage, newGamePage } from "./lobby.js";
import { useNames } from "./names.js";
import { ReplayPage } from "./replay.js";

const root = document.getElementById("main");
let page = null;

async function route() {
  if (page && page.stop) page.stop();
  page = null;
  useNames(null);  // a page of another game, or of none, names its seats itself
  const hash = location.hash.slice(1);
  try {
    if (hash.startsWith("invite=")) {  // #invite=<game>.<seat>.<code>: claim the reserved seat
      const [game, seat, ...code] = hash.slice(7).split(".");
      return joinPage(root, game, Number(seat), code.join("."));
    }
    const [path, query] = hash.split("?");
    const parts = path.split("/").filter(Boolean);
    if (parts[0] === "new") return await newGamePage(root);
    if (parts[0] === "game" && parts[1]) { page = new GamePage(root, parts[1]); return await page.start(); }
    if (parts[0] === "replay" && parts[1]) {
      page = new ReplayPage(root, parts[1], Number(parts[2]) || 0);
      return await page.start();
    }
    if (parts[0] === "audit" && parts[1]) return await auditPage(root, parts[1]);
    if (parts[0] === "rules" && parts[1]) return await rulesPage(root, parts[1]);
    return await lobbyPage(root, new URLSearchParams(query || ""));
  } catch (error) {
    root.replaceChildren(h("h1", {}, "Something went wrong"), h("p", { class: "message", role: "alert" }, problemText(error)));
  }
}

document.getElementById("new-game").addEventListener("click", () => { location.hash = "#/new"; });
window.addEventListener("hashchange", route);
route().then(() => { window.__pantheonReady = performance.now(); });  // the first page drawn (for the bench)
