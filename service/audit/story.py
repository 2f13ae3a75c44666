"""The audit's story: every event in words (the game's `narrate`, as `/events` gives it), who
caused it and the scores after it. While the game runs, the story is told as a spectator sees it:
each event redacted for no seat, the scores a spectator may know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.kernel import Decider, narrate, redact
from domain.names import with_names
from domain.words import player_name
from service.store.codec import Envelope


@dataclass(frozen=True)
class StoryLine:
    version: int
    seat: int | None  # the seat whose command caused the event (None: the game, or the platform)
    command: str | None  # the command's type, on the first of the events it caused
    text: str  # the event in words
    scores: list[Any]  # after the event, per seat (None: a score a spectator may not know yet)

    def __str__(self) -> str:
        """One line for `pantheon audit`: 'v12    Player A place_foot: Player A placed ...  scores A 3, B 5'."""
        who = player_name(self.seat) if self.seat is not None else "the game"
        did = f"{who} {self.command}: " if self.command else "  "
        return f"v{self.version:<5} {did}{self.text}  scores {score_words(self.scores)}"


def score_words(scores: list[Any]) -> str:
    """'A 3, B 5' (a score kept secret: '?'), or 'none yet'."""
    if not scores:
        return "none yet"
    return ", ".join(f"{chr(ord('A') + i)} {'?' if s is None else s}" for i, s in enumerate(scores))


def words(decider: Decider, before: Any, event: Any, revealed: bool, names: Mapping[int, str]) -> str:
    """The event in words as a spectator may read it (the whole event once the game's secrets are
    `revealed`), from the state `before` it, with the seats' `names` of that moment. A damaged log
    may hold an event its game cannot tell: then its type, in words (the audit reports the damage,
    it does not fail on it)."""
    shown = event if revealed else redact(decider, event, None)
    try:
        return with_names(narrate(decider, before, shown, None), names)
    except Exception:  # noqa: BLE001 - a forged event may break the game's narration in any way
        tag = getattr(type(event), "__struct_config__", None)
        return (tag.tag if tag else type(event).__name__).replace("_", " ").capitalize() + "."


def story_line(decider: Decider, after: Any, e: Envelope, text: str, command: str | None, revealed: bool) -> StoryLine:
    """Event `e` in the story: its `text` (`words`), the `command` that caused it, the scores in
    the state `after` it (a spectator's until the secrets are `revealed`)."""
    scores = decider.scores(after, revealed) if decider.scores and after is not None else []
    return StoryLine(e.version, e.seat, command, text, list(scores))
