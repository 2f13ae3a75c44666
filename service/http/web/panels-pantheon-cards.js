// The card game's panels beside its table: your hand (and the hand you spy), the war as it unfolds
// (a commitment sealed until both sides are in), the piles and the turn, and the players. A card one
// of the server's choices names (to play, take or lay on a pile) is a button.

import { seatName } from "./board.js";
import { h, swatch, who, words } from "./dom.js";
import { cardName, cardType, chosen, clickable, columnName, godTitle, levelWords, names, number } from "./pantheon-cards.js";

// `ctx` = {detail, seat, choices (the clickable ones: none unless it is your turn), pick(choice), path}.
export function panels(view, ctx) {
  const c = { ...ctx, targets: clickable(ctx.choices, ctx.seat), marked: chosen(ctx.path, ctx.seat) };
  return [hand(view, c), war(view, c), table(view, c), piles(view, c), seatsTable(view, c.detail, c.seat)].filter(Boolean);
}

export function replayPanels(view, detail, seat) {
  return panels(view, { detail, seat, choices: [], pick: () => {}, path: [] });
}

function card(id, ctx) {
  const name = cardType(id) === "god" ? godTitle(id) : cardName(id);
  const choice = ctx.targets.get(`card:${id}`);
  const cls = `card ${cardType(id)}${ctx.marked.has(`card:${id}`) ? " chosen" : ""}`;
  return choice
    ? h("button", { type: "button", class: cls, "data-choice": choice.key, onclick: () => ctx.pick(choice),
      "aria-label": choice.label, title: choice.label }, name)
    : h("span", { class: cls }, name);
}

const cards = (ids, ctx, none = "no cards") => h("div", { class: "cards" }, ids && ids.length ? ids.map((id) => card(id, ctx)) : none);

// Your hand only: the others' are counts (the table and the players).
function hand(view, ctx) {
  const mine = view.you;
  if (!mine) return null;
  const spied = view.spies && mine.spied_hand ? view.spies[1] : null;
  return h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, `Your hand (${mine.hand.length})`),
    cards(mine.hand, ctx),
    spied !== null ? [h("h2", {}, `${seatName(spied)}'s hand, which you spy`), cards(mine.spied_hand, ctx)] : null,
    mine.removed_from_hand.length ? h("p", {}, `Removed from your hand by Creation: ${names(mine.removed_from_hand)}`) : null);
}

const STAGES = {
  undefended: (a, d) => `${d} has no worshipers in play: ${a} may damage one of ${d}'s temples.`,
  commit_attacker: (a) => `${a} is choosing the columns to commit, sealed until both sides have committed.`,
  commit_defender: (a, d) => `${a} has committed, sealed until both sides have; ${d} is choosing.`,
  battle_card_defender: (a, d) => `Both commitments are revealed; ${d} may play a battle card.`,
  battle_card_attacker: (a) => `Both commitments are revealed; ${a} may play a battle card.`,
  place_survivors: () => "The battle is over: the victor places its surviving worshipers.",
};

// The war as it unfolds: the commitments sealed (only your own shown to you) until both are in.
function war(view, ctx) {
  const w = view.war;
  if (!w) return null;
  const [a, d] = [w.attacker, w.defender].map((s) => who(s, ctx.detail, ctx.seat));
  const sealed = w.stage.startsWith("commit");
  const sides = [w.attacker, w.defender].map((seat, i) => {
    const own = view.you && view.you.seat === seat && view.you.war_commitment;
    let committed;
    if (!w.committed[i]) committed = "not committed yet";
    else if (sealed) committed = own ? `committed, sealed to the others: ${own.map((id) => columnName(id, ctx.seat)).join(", ")}` : "committed, sealed";
    else committed = `committed ${w.columns[i].map((id) => columnName(id, ctx.seat)).join(", ")}`;
    const multiplier = Math.max(w.multipliers[i], w.battle_card_multipliers[i]);
    return h("li", { "data-side": i === 0 ? "attacker" : "defender", "data-sealed": String(sealed && w.committed[i]) },
      h("strong", {}, i === 0 ? `Attacker ${a}: ` : `Defender ${d}: `), committed,
      ` · war multiplier ×${multiplier}`,
      sealed ? "" : ` · war deck: ${levelWords(w.decks[i])} · survivors: ${levelWords(w.survivors[i])}`);
  });
  const victor = w.victor === null ? "" : `Victor: ${who(w.victor, ctx.detail, ctx.seat)}.`;
  return h("section", { class: "war", "aria-label": "War", "data-stage": w.stage },
    h("h2", {}, `War: ${seatName(w.attacker)} attacks ${seatName(w.defender)}`),
    h("p", { class: "war-stage" }, (STAGES[w.stage] || (() => words(w.stage)))(a, d)),
    h("ul", { class: "sides" }, sides), victor ? h("p", {}, victor) : null);
}

// The turn, what is revealed, the deck and what left the game.
function table(view, ctx) {
  const whose = view.active >= 0 && !view.finished ? ` · ${seatName(view.active)}'s turn` : "";
  const rows = [["Turn", `${view.turn}${whose} (${words(view.stage)})`],
    ["Draw deck", `${view.deck} cards`]];
  if (view.revealed) rows.push(["Revealed", card(view.revealed, ctx)]);
  if (view.mischief_victim !== null) rows.push(["Mischief", `${seatName(view.mischief_victim)} must play the revealed card on another player`]);
  if (view.spies) rows.push(["Spies", `${seatName(view.spies[0])} looks at ${seatName(view.spies[1])}'s hand`]);
  if (view.tied.length) rows.push(["Battle of Pantheons", `${view.tied.map(seatName).join(", ")} are tied (battle turn ${view.battle_turns})`]);
  if (view.options) rows.push(["Game length", `${words(view.options.game_length)} (${view.removed_at_setup} cards removed unseen at setup)`]);
  if (view.removed.length) rows.push(["Removed from the game", names(view.removed)]);
  if (view.unseen_at_end) rows.push(["Never seen", names(view.unseen_at_end)]);
  return h("dl", { class: "public" }, rows.flatMap(([t, d]) => [h("dt", {}, t), h("dd", {}, d)]));
}

// Both discard piles top first, and this turn's discards (to order onto them at its end).
function piles(view, ctx) {
  const top = (ids) => [...(ids || [])].reverse();
  return h("section", { class: "piles", "aria-label": "Discard piles" },
    h("h2", {}, `General discard pile (${view.general_discard.length}), top first`), cards(top(view.general_discard), ctx, "empty"),
    h("h2", {}, `God discard pile (${view.god_discard.length}), top first`), cards(top(view.god_discard), ctx, "empty"),
    view.pending_general.length || view.pending_gods.length
      ? [h("h2", {}, "This turn's discards"), cards([...view.pending_general, ...view.pending_gods], ctx)] : null);
}

function seatsTable(view, detail, mine) {
  const awaited = view.awaiting ? view.awaiting.seat : null;
  const rows = (view.seats || []).map((s) => h("tr", { class: s.seat === awaited ? "awaited" : null, "data-seat": s.seat },
    h("th", { scope: "row" }, swatch(s.seat), " ", who(s.seat, detail, mine), s.seat === awaited ? " ◀ to play" : ""),
    h("td", { class: "score", "data-score": s.score }, String(s.score)),
    h("td", { class: "hand-size" }, String(s.hand_size)),
    h("td", {}, String(s.columns.length)),
    h("td", {}, number(s.columns.reduce((sum, c) => sum + c.value, 0)), s.multiplier > 1 ? ` (×${s.multiplier})` : ""),
    h("td", {}, names(s.in_effect))));
  return h("table", { class: "seats" }, h("caption", {}, "Players"),
    h("thead", {}, h("tr", {}, ["Player", "Score", "Cards in hand", "Columns", "Worshipers", "In effect"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows));
}
