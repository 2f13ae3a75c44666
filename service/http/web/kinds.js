// The game kinds the client draws: each module gives a `Board` (load, draw), the panels beside it
// (`panels` for play, `replayPanels` for the replay) and its `TITLE`. Another game is one more
// module here.

import * as pantheon from "./board-pantheon.js";
import * as pantheonCards from "./board-pantheon-cards.js";
import * as pergamon from "./board-pergamon.js";

const KINDS_BY_NAME = { pantheon, pergamon, pantheon_cards: pantheonCards };

export const forKind = (kind) => KINDS_BY_NAME[kind] || pantheon;
export const KINDS = Object.keys(KINDS_BY_NAME);  // the kinds the client can draw (the lobby's filter)
// A kind in words: its module's title ("Pantheon, the card game"), else its name.
export const kindTitle = (kind) => (KINDS_BY_NAME[kind] || {}).TITLE || String(kind).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
