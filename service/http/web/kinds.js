// The game kinds the client draws: each module gives a `Board` (load, draw) and the panels beside
// it (`panels` for play, `replayPanels` for the replay). A third game is one more module here.

import * as pantheon from "./board-pantheon.js";
import * as pergamon from "./board-pergamon.js";

const KINDS_BY_NAME = { pantheon, pergamon };

export const forKind = (kind) => KINDS_BY_NAME[kind] || pantheon;
export const KINDS = Object.keys(KINDS_BY_NAME);  // the kinds the client can draw (the lobby's filter)
