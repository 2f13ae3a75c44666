"""Players' display names: what a name may be (checked once, where it enters), the names a game's
log has given its seats, and a text with its seats' labels ("Player B") replaced by their names.

A name is untrusted text: it is normalised (NFC), 1 to 24 characters, holds no control, format
(bidirectional overrides, zero-width joiners), separator-of-lines or unassigned character, is no
label the clients use themselves ("You", "AI (strong)", "Player B"), and no two seats of a game
have names that differ only in case or compatibility form."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from domain.kernel import DomainError, SeatNamed

MAX_LENGTH = 24
# Cc: controls (newlines: no log injection); Cf: format (U+202A-202E, U+2066-2069 bidi overrides and
# isolates, zero-width characters); Zl, Zp: line and paragraph separators; Cs, Co, Cn: surrogates,
# private use, unassigned (a name must read the same on every screen).
FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
# What the clients write for a seat or a person themselves: a name must never read as one of them.
RESERVED = frozenset(
    {"you", "your", "yours", "me", "ai", "admin", "the admin", "spectator", "a spectator", "the game", "nobody"}
)
# "Player B", "player b's", "Seat 1", "AI (strong)", "AI, greedy": the clients' own labels, anywhere in
# the name (so a seat label in a text is never part of a name: `with_names`)
_LABEL = re.compile(r"\b(player|seat)\s+[a-z0-9]{1,2}\b|^ai\s*([(,]|$)", re.IGNORECASE)
# a seat's label in a text (domain.words.player_name), replaced by the seat's name
_SEAT_LABEL = re.compile(r"\bPlayer ([A-Z])\b")


def key(name: str) -> str:
    """What two names must not share: the name folded for case and compatibility forms ("Ａnn" and "ann")."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(raw: str, names: Mapping[int, str], seat: int) -> str:
    """The name `seat` may take (NFC-normalised, spaces at its ends removed), given the `names` the
    game's seats hold now; DomainError with a stable code and what to do otherwise."""
    name = unicodedata.normalize("NFC", raw).strip()
    bad = sorted({f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in FORBIDDEN_CATEGORIES})
    if bad:
        raise DomainError(
            "name_forbidden_character",
            f"A name may not hold control, formatting or direction-changing characters ({', '.join(bad[:3])}); "
            "type it again with letters, digits, spaces and punctuation only.",
        )
    if not 1 <= len(name) <= MAX_LENGTH:
        raise DomainError(
            "name_length", f"A name has 1 to {MAX_LENGTH} characters; this one has {len(name)}. Choose another."
        )
    folded = " ".join(key(name).split())
    if folded in RESERVED or _LABEL.search(folded):
        raise DomainError(
            "name_reserved",
            f"“{name}” is what the game itself calls a seat or a person (like “You”, “Player B” or “AI (strong)”); "
            "choose another name.",
        )
    for other, taken in names.items():
        if other != seat and key(taken) == key(name):
            raise DomainError(
                "name_taken", f"Another player of this game is already called “{taken}”; choose another name."
            )
    return name


def with_names(text: str, names: Mapping[int, str]) -> str:
    """`text` with each seat label ("Player B", "Player B's") replaced by the seat's name, where it
    has one (in one pass: a name put in is never read again). "You" stays "You"."""
    if not names:
        return text
    return _SEAT_LABEL.sub(lambda m: names.get(ord(m.group(1)) - ord("A"), m.group(0)), text)


def named(names: Mapping[int, str], event: object) -> dict[int, str]:
    """The seats' names after `event` (a SeatNamed gives its seat a name; every other event none)."""
    if isinstance(event, SeatNamed):
        return {**names, event.seat: event.name}
    return dict(names)
