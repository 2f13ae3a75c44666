"""Words every game's narration shares: seats named as the web client names them ("Player A" for
seat 0, "You" for the viewer's own seat), lists joined with "and", counted nouns."""

from __future__ import annotations

from collections.abc import Iterable


def letter(seat: int) -> str:
    """'A' for seat 0, 'B' for seat 1, ... (a number past 'Z', as the web client does past its letters)."""
    return chr(ord("A") + seat) if 0 <= seat < 26 else str(seat + 1)


def player_name(seat: int) -> str:
    """'Player B' for seat 1: a seat as the web client shows it, in every message a person reads."""
    return f"Player {letter(seat)}"


def seat_name(seat: int) -> str:
    """ "Player B's seat (seat 1)": a seat in a message about the seat itself, with the number the
    API's paths and commands use."""
    return f"{player_name(seat)}'s seat (seat {seat})"


def seats_words(players: int) -> str:
    """'This game has seats 0 to 2 (Player A to Player C).': the seats a command or path may name."""
    return f"This game has seats 0 to {players - 1} ({player_name(0)} to {player_name(players - 1)})."


def player(seat: int, viewer: int | None, *, start: bool = True) -> str:
    """'Player B', or 'You' ('you' inside a sentence) for the viewer's own seat."""
    if seat == viewer:
        return "You" if start else "you"
    return player_name(seat)


def players_of(seat: int, viewer: int | None) -> str:
    """'your' or "Player B's"."""
    return "your" if seat == viewer else f"{player_name(seat)}'s"


def and_list(items: Iterable[str], empty: str = "nothing") -> str:
    """'a', 'a and b', 'a, b and c' (or `empty`)."""
    words = [w for w in items if w]
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def count(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '3 cards', '2 feet' (with `many` for an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def sentence(text: str) -> str:
    """The text with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def forked(seat: int | None, viewer: int | None) -> str:
    """The first event of a fork: whose knowledge of the parent game it was dealt from."""
    whose = "a spectator" if seat is None else player(seat, viewer, start=False)
    return f"This game was forked from another one, as {whose} saw it, with everything unseen dealt afresh."


def own(seat: int, viewer: int | None) -> str:
    """'your' or 'their': the subject's own (in 'Player B raised their sacrifice')."""
    return "your" if seat == viewer else "their"


def points(n: int) -> str:
    """'+1 point', '+3 points'."""
    return f"+{count(n, 'point')}"
