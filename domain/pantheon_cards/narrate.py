"""Every event in words, for one viewer: the move log's sentences ("Player B drew a card", "You
drew Mars", "Player A placed Zeus in their column 2"). Pure: `narrate(state, event, viewer)` reads
the event as that viewer may see it (hidden cards already None) and, of the state before it, only
the edition's component data (card, power and pantheon names). Never an id, never a dump."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from domain.words import and_list, count, forked, own, player, players_of, sentence

from . import events as ev
from .components import Components, load_components
from .fork import PantheonCardsForked

DRAW_SOURCES = {
    "deck": "from the deck",
    "extra": "as an extra card",
    "chaos": "through Chaos",
    "general_discard": "from the discard pile",
    "god_discard": "from the gods' discard pile",
}
CHALLENGES = {"first_seat": "who plays first"}


def narrate(state: Any, event: ev.Event | PantheonCardsForked, viewer: int | None) -> str:
    """The event in one or two plain sentences for `viewer` (a seat, None for a spectator)."""
    if isinstance(event, PantheonCardsForked):
        return forked(event.seat, viewer)
    edition = event.options.edition if isinstance(event, ev.PantheonCardsGameCreated) else state.options.edition
    return sentence(_Narrator(load_components(edition), viewer).text(event))


class _Narrator:
    def __init__(self, comps: Components, viewer: int | None) -> None:
        self.comps, self.viewer = comps, viewer

    def who(self, seat: int, start: bool = True) -> str:
        return player(seat, self.viewer, start=start)

    def card(self, card_id: str) -> str:
        """'Zeus', 'a wooden temple', '500 worshipers', 'Writing'."""
        c = self.comps.cards[card_id]
        if c.type == "temple":
            return f"a {c.kind} temple"
        if c.type == "worshiper":
            return f"{c.level:,} worshipers"
        return c.name

    def cards(self, cards: Sequence[str]) -> str:
        return and_list((self.card(c) for c in cards), "no cards")

    def column(self, column_id: str, subject: int | None = None) -> str:
        """ "Player B's column 2", or "their column 2" when Player B is the sentence's subject."""
        seat, n = column_id.split(":", 1)
        if not seat.isdigit():
            return "a new column"
        whose = own(int(seat), self.viewer) if int(seat) == subject else players_of(int(seat), self.viewer)
        return f"{whose} column {n}"

    def power(self, power: str) -> str:
        return self.comps.powers[power].name

    def text(self, e: ev.Event) -> str:  # noqa: C901, PLR0911, PLR0912 - one case per event
        who = self.who
        match e:
            case ev.PantheonCardsGameCreated(options=o, deck=deck):
                return f"a game of Pantheon, the card game, for {o.players} players began with {count(deck, 'card')} in the deck"
            case ev.CardDealt(seat=seat, card=card):
                return f"{who(seat)} {'were' if seat == self.viewer else 'was'} dealt {self.card(card) if card else 'a card'}"
            case ev.WorshipersAnnounced(counts=counts):
                return "worshiper cards in hand: " + and_list(f"{who(s, False)} {n}" for s, n in enumerate(counts))
            case ev.ChallengeRolled():
                return self.challenge(e)
            case ev.TurnStarted(seat=seat, turn=turn):
                return f"turn {turn}: {players_of(seat, self.viewer)} turn"
            case ev.StepBegun(step=step):
                return f"the turn moves on to its {step} step"
            case ev.CardDrawn(seat=seat, source=source, card=card):
                return f"{who(seat)} drew {self.card(card) if card else 'a card'} {DRAW_SOURCES.get(source, '')}"
            case ev.GodRevealed(seat=seat, card=card):
                return f"{who(seat)} drew a god from the deck: {self.card(card)}, who is attracted"
            case ev.GodColumnsKept(seat=seat, god=god):
                return f"{who(seat)} chose which column {self.card(god)} joins"
            case ev.CardPlaced(player=p, card=card, column=column, replaced=replaced):
                text = f"{who(p)} placed {self.card(card)} in {self.column(column, p)}"
                return text + (f", replacing {self.card(replaced)}" if replaced else "")
            case ev.PlaySkipped(seat=seat):
                return f"{who(seat)} had no card to play"
            case ev.PowerEmployed():
                return self.employed(e)
            case ev.CivilizationPlayed(seat=seat, card=card, beneficiary=b):
                text = f"{who(seat)} played {self.card(card)}"
                return text + (f" for {who(b, False)}" if b != seat else "")
            case ev.TempleRepaired(temples=temples):
                return f"{count(len(temples), 'temple')} repaired"
            case ev.TempleDamaged(temple=temple):
                return f"{self.card(temple)} was damaged"
            case ev.CardDiscarded(card=card, reason=reason):
                return f"{self.card(card)} went to the discard pile ({reason.replace('_', ' ')})"
            case ev.WorshiperReplaced(card=card, replacement=replacement):
                return f"{self.card(card)} were replaced by {self.card(replacement)}"
            case ev.DiscardPileShuffled():
                return "the discard pile was shuffled"
            case ev.GodMoved(god=god, column=column):
                return f"{self.card(god)} moved to {self.column(column)}"
            case ev.WorshiperMoved(card=card, column=column):
                return f"{self.card(card)} moved to {self.column(column)}"
            case ev.MischiefCardTaken(seat=seat, victim=victim, card=card):
                return f"{who(seat)} took {self.card(card)} from {players_of(victim, self.viewer)} hand"
            case ev.HandSpied(spy=spy, target=target, hand=hand):
                seen = f": {self.cards(hand)}" if hand is not None else ""
                return f"{who(spy)} looked at {players_of(target, self.viewer)} hand{seen}"
            case ev.SpiedCardTaken(spy=spy, target=target, card=card):
                taken = self.card(card) if card else "a card"
                return f"{who(spy)} took {taken} from {players_of(target, self.viewer)} hand"
            case ev.WarDeclared(attacker=a, defender=d, undefended=undefended):
                return f"{who(a)} declared war on {who(d, False)}" + (" (undefended)" if undefended else "")
            case ev.WarCommitted(seat=seat, columns=columns):
                if columns is None:
                    return f"{who(seat)} committed columns to the war, sealed"
                return (
                    f"{who(seat)} committed {and_list((self.column(c, seat) for c in columns), 'no column')} to the war"
                )
            case ev.WarDecksFormed(decks=decks):
                return "war decks formed: " + and_list(f"{count(len(d), 'card')}" for d in decks)
            case ev.BattleCardPlayed(seat=seat, card=card):
                return f"{who(seat)} played the battle card {self.card(card)}"
            case ev.BattleCardSkipped(seat=seat):
                return f"{who(seat)} played no battle card"
            case ev.WarCardsRevealed(cards=cards, values=values):
                return "war cards revealed: " + " against ".join(
                    f"{self.card(c)} ({v:,})" for c, v in zip(cards, values, strict=False)
                )
            case ev.WarEnded(victor=victor, truce=truce):
                if truce:
                    return "the war ended in a truce"
                return "the war ended with no victor" if victor is None else f"{who(victor)} won the war"
            case ev.SurvivorsPlaced(seat=seat, placements=placements):
                return (
                    f"{who(seat)} placed {count(len(placements), 'surviving card')} in {own(seat, self.viewer)} columns"
                )
            case ev.ColumnRemoved(column=column):
                return f"{self.column(column)} was empty and is gone"
            case ev.DiscardsPlaced(general=general, gods=gods):
                return f"{count(len(general) + len(gods), 'card')} went onto the discard piles"
            case ev.CreationCleared(seat=seat, hands=hands):
                mine = hands[self.viewer] if self.viewer is not None and self.viewer < len(hands) else None
                text = f"{who(seat)} used Creation: everything but the unseen cards left the game"
                return text + (f" (your hand held {self.cards(mine)})" if mine else "")
            case ev.GameScored(scores=scores, tied=tied):
                text = "final scores: " + and_list(f"{who(s, False)} {n:,}" for s, n in enumerate(scores))
                return text + (f"; tied: {and_list(who(s, False) for s in tied)}" if len(tied) > 1 else "")
            case ev.BattleTurnStarted(seat=seat):
                return f"battle of Pantheons: {players_of(seat, self.viewer)} battle turn"
            case ev.BattleTurnEnded(seat=seat, changed=changed):
                return f"{players_of(seat, self.viewer)} battle turn ended" + (", scores changed" if changed else "")
            case ev.GameOver(winners=winners, draw=draw):
                names = and_list(who(w, False) for w in winners)
                return f"the game is over: a draw between {names}" if draw else f"the game is over: {names} won"
            case ev.DecisionAwaited(seat=seat, decision=decision):
                return f"waiting for {who(seat, False)} ({decision.replace('_', ' ')})"
            case _:
                assert_never(e)

    def challenge(self, e: ev.ChallengeRolled) -> str:
        last = {r.seat: r.roll for r in e.rounds[-1]} if e.rounds else {}
        roll = f" with a roll of {last[e.winner]}" if e.winner in last else ""
        about = CHALLENGES.get(e.reason, e.reason.replace("_", " ").capitalize())
        return f"challenge ({about}): {self.who(e.winner, False)} won{roll}"

    def employed(self, e: ev.PowerEmployed) -> str:
        text = f"{self.who(e.seat)} used {self.card(e.god)}'s {e.slot} power, {self.power(e.power)}"
        if e.target is not None:
            text += f", on {self.who(e.target, False)}"
        if e.target_god:
            text += f", against {self.card(e.target_god)}"
        return text
