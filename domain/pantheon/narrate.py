"""Every event in words, for one viewer: the move log's sentences ("Player B drew 2 cards", "You
drew 1 Priest card", "Epoch 3 scored: Player A +7 ..."). Pure: `narrate(state, event, viewer)`
reads the event as that viewer may see it (already redacted) and, of the state before it, only
the edition's component data (names of gods, loot and bonus tiles). Never an id, never a dump."""

from __future__ import annotations

from typing import Any, assert_never

from domain.words import and_list, count, forked, own, player, points, sentence

from . import events as ev
from .commands import PlacePiece, Purchase, Reserve, SacrificeTile
from .components import Components, load_components
from .labels import CARD_NAMES, cards_phrase, effect_phrase
from .names import bonus_name
from .redeal import Redealt
from .vocabulary import god_of

DRAW_REASONS = {"preparation": "at the epoch's preparation", "depraccus": "thanks to Depraccus"}
GOD_SOURCES = {
    "board": "",
    "gallia": " (Gallia)",
    "loot": " from a loot tile",
    "bonus": " from a bonus tile",
    "surparit": " from the top of the gods stack (Surparit)",
}


def narrate(state: Any, event: ev.Event | Redealt, viewer: int | None) -> str:
    """The event in one or two plain sentences for `viewer` (a seat, None for a spectator)."""
    if isinstance(event, Redealt):
        return forked(event.seat, viewer)
    edition = event.options.edition if isinstance(event, ev.GameCreated) else state.options.edition
    return sentence(_text(load_components(edition), event, viewer))


def _text(comps: Components, e: ev.Event, viewer: int | None) -> str:  # noqa: C901, PLR0911, PLR0912 - one case per event
    match e:
        case ev.GameCreated(options=o):
            return f"A game of Pantheon for {o.players} players began"
        case ev.StartingSeatChosen(seat=seat):
            return f"{player(seat, viewer)} will start"
        case ev.CardsDrawn():
            return _drawn(e, viewer)
        case ev.DisplayRefilled(card=card):
            return f"a {CARD_NAMES[card]} card was laid out on the display"
        case ev.CardTaken(seat=seat, card=card):
            return f"{player(seat, viewer)} took a {CARD_NAMES[card]} card from the display"
        case ev.DiscardReshuffled(count=n):
            return f"the discard pile ({count(n, 'card')}) was shuffled into a new draw pile"
        case ev.HandsReshuffled():
            return _hands_reshuffled(e, viewer)
        case ev.BonusTilesDealt(tiles=tiles):
            return "bonus tiles on offer: " + and_list(f"'{bonus_name(t)}'" for t in tiles)
        case ev.NationRevealed(epoch=epoch, nation=nation):
            return f"epoch {epoch}: the nation is {nation.capitalize()}"
        case ev.GodsStackRebuilt(count=n):
            return f"the gods stack was rebuilt from {count(n, 'tile')} in the box"
        case ev.GodsRevealed(tiles=tiles):
            return "gods on offer: " + and_list(_god(t) for t in tiles)
        case ev.HalfGodsDisplayed(values=values):
            return "half gods on display: " + and_list(str(v) for v in values)
        case ev.LootPlaced(tiles=tiles):
            return f"{count(len(tiles), 'loot tile')} placed on the map"
        case ev.SpecialMoneyResorted():
            return "the special money cards were shuffled"
        case ev.CardsDiscarded(seat=seat, cards=cards):
            return f"{player(seat, viewer)} discarded {_cards(cards)}"
        case ev.PiecesExchanged(seat=seat, give=give, count=n):
            got = "column" if give == "foot" else "foot"
            return f"{player(seat, viewer)} exchanged {_pieces(give, n)} for {_pieces(got, n)}"
        case ev.SacrificeImproved(seat=seat, kind=kind, level=level):
            return f"{player(seat, viewer)} raised {own(seat, viewer)} {kind.capitalize()} sacrifice to level {level}"
        case ev.TemplePlaced():
            return "a temple was built in the nation's starting hex"
        case ev.BonusTileChosen(seat=seat, tile=tile):
            return f"{player(seat, viewer)} chose the bonus tile '{bonus_name(tile)}'"
        case ev.Moved():
            return _moved(comps, e, viewer)
        case ev.FollowUpDeclined(seat=seat):
            return f"{player(seat, viewer)} declined the follow-up move"
        case ev.Bought():
            return _bought(comps, e, viewer)
        case ev.GodGained(seat=seat, tile=tile, source=source, points=gained):
            return f"{player(seat, viewer)} gained {_god(tile)}{GOD_SOURCES.get(source, '')} ({points(gained)})"
        case ev.GalliaRevealed(seat=seat, tile=tile):
            return f"Gallia showed {player(seat, viewer, start=False)} {_god(tile)}"
        case ev.GalliaDeclined(seat=seat, tile=tile):
            return f"{player(seat, viewer)} left {_god(tile)}"
        case ev.HalfGodTaken():
            return _half_god(e, viewer)
        case ev.SpecialMoneyTaken(seat=seat, value=value):
            return f"{player(seat, viewer)} took a special money card worth {value}"
        case ev.ReserveGained(seat=seat, feet=feet, columns=columns):
            added = and_list([_pieces("foot", feet) if feet else "", _pieces("column", columns) if columns else ""])
            return f"{player(seat, viewer)} added {added} to {own(seat, viewer)} reserve"
        case ev.LootActivated(seat=seat, tile=tile):
            return f"{player(seat, viewer)} used a loot tile: {effect_phrase(comps.loot[tile])}"
        case ev.BonusActivated(seat=seat, tile=tile):
            return f"{player(seat, viewer)} used {own(seat, viewer)} bonus tile '{bonus_name(tile)}': {effect_phrase(comps.bonus[tile])}"
        case ev.ColumnPlaced(seat=seat):
            return f"{player(seat, viewer)} placed a column from the general reserve on a column site"
        case ev.TraiteraSpent(seat=seat):
            return f"{player(seat, viewer)} spent Traitera to take one more action"
        case ev.TurnPhaseEnded(seat=seat, points=gained):
            return f"{player(seat, viewer)} ended the turn phase ({points(gained)})"
        case ev.EpochEnded(epoch=epoch, next_starting_seat=seat):
            return f"epoch {epoch} ended; {player(seat, viewer, start=False)} will start the next one"
        case ev.Scored():
            return _scored(e, viewer)
        case ev.GameEnded():
            return _ended(e, viewer)
        case ev.AgendaSet(tasks=tasks):
            waiting = next((t.seat for t in tasks if t.seat >= 0), None)
            return "the game moves on" if waiting is None else f"{player(waiting, viewer)} to play next"
        case _:
            assert_never(e)


def _god(tile: str) -> str:
    return god_of(tile).capitalize()


def _cards(cards: list[str]) -> str:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return cards_phrase(counts)


def _pieces(piece: str, n: int) -> str:
    return count(n, "foot", "feet") if piece == "foot" else count(n, "column")


def _drawn(e: ev.CardsDrawn, viewer: int | None) -> str:
    why = f" {DRAW_REASONS[e.reason]}" if e.reason in DRAW_REASONS else ""
    if e.cards:  # only the seat itself sees which cards (views.redact)
        return f"{player(e.seat, viewer)} drew {_cards(e.cards)}{why}"
    return f"{player(e.seat, viewer)} drew {count(e.count, 'card')}{why}"


def _hands_reshuffled(e: ev.HandsReshuffled, viewer: int | None) -> str:
    text = "the draw and discard piles were empty: every hand was shuffled into a new draw pile"
    if viewer is not None and viewer < len(e.hands) and e.hands[viewer]:
        text += f" (yours held {_cards(e.hands[viewer])})"
    return text


def _moved(comps: Components, e: ev.Moved, viewer: int | None) -> str:
    played = f"played {count(e.cards, 'Movement card')}" if e.cards else "moved"
    big = " and the big foot" if e.big_foot else ""
    feet = sum(p.piece == "foot" for p in e.placements)
    columns = len(e.placements) - feet
    placed = and_list([_pieces("foot", feet) if feet else "", _pieces("column", columns) if columns else ""])
    jumps = sum(p.jump for p in e.placements)
    text = f"{player(e.seat, viewer)} {played}{big} for {count(e.steps, 'step')} and placed {placed}"
    if jumps:
        text += f" ({count(jumps, 'jump')})"
    if e.loot:
        text += "; loot taken: " + and_list(effect_phrase(comps.loot[t]) for t in e.loot)
    return text


def _purchase(p: Purchase) -> str:
    match p:
        case SacrificeTile(kind=kind, level=level):
            return f"a level {level} {kind.capitalize()} sacrifice tile"
        case Reserve(piece=piece, count=n):
            return f"{_pieces(piece, n)} for the reserve"
        case PlacePiece(piece=piece):
            return f"placing a {piece}"
        case _:
            assert_never(p)


def _bought(comps: Components, e: ev.Bought, viewer: int | None) -> str:
    spent = sum(e.costs)
    bought = and_list((_purchase(p) for p in e.purchases), "nothing")
    text = f"{player(e.seat, viewer)} spent {spent} of {e.budget} money on {bought}"
    if e.loot:
        text += "; loot taken: " + and_list(effect_phrase(comps.loot[t]) for t in e.loot)
    return text


def _half_god(e: ev.HalfGodTaken, viewer: int | None) -> str:
    if e.source == "display":
        return f"{player(e.seat, viewer)} took the half god worth {e.value} from the display"
    if e.value:  # the seat's own draw from the stack (others see no value)
        return f"{player(e.seat, viewer)} drew a half god worth {e.value} from the stack"
    return f"{player(e.seat, viewer)} drew a half god from the stack"


def _scored(e: ev.Scored, viewer: int | None) -> str:
    rows = []
    for seat, row in enumerate(e.rows):
        parts = [
            f"{row.columns} for columns" if row.columns else "",
            f"{row.half_gods} for half gods" if row.half_gods else "",
            f"{row.pietalte} for Pietalte" if row.pietalte else "",
        ]
        detail = f" ({and_list(parts)})" if any(parts) else ""
        rows.append(f"{player(seat, viewer, start=False)} +{row.total}{detail}")
    return f"epoch {e.epoch} scored: " + and_list(rows)


def _ended(e: ev.GameEnded, viewer: int | None) -> str:
    won = and_list(player(w, viewer, start=False) for w in e.winners)
    verb = "wins" if len(e.winners) == 1 and e.winners[0] != viewer else "win"
    scores = and_list(f"{player(s, viewer, start=False)} {n}" for s, n in enumerate(e.scores))
    return f"the game is over: {won} {verb} (points: {scores})"
