"""The audit's check of a game's platform events (a seat re-issued or named): no command decides
them, so the audit checks what they may be."""

from __future__ import annotations

from domain.kernel import PLATFORM_TYPES, Decider, DomainError, PlatformEvent, SeatNamed, SeatReissued
from domain.names import check_name
from domain.words import seat_name
from service.store.codec import Envelope

from .export import Header


class PlatformCheck:
    """The platform's events: no command decides them, so the audit checks what they may be. Each
    stands alone (no command, cause, seat, key or provenance in its envelope), is recorded while
    the game runs (after its first event, before its end) and, for a re-issue, names a human seat
    of the game (in a fork, past the prefix copied from its parent, whose seats those were). No
    command's events may hold one. Every replay passes over them: they change no state."""

    def __init__(self, header: Header, decider: Decider, prefix: int) -> None:
        self.seats, self.decider, self.prefix = header.seats, decider, prefix
        self.failure: int | None
        self.count, self.failure, self.why, self.names = 0, None, "", dict[int, str]()

    def check(self, state, batch: list[Envelope], events: list) -> None:
        if self.failure is not None:
            return
        platform = [isinstance(event, PlatformEvent) for event in events]
        if batch[0].type not in PLATFORM_TYPES:
            if any(platform):
                self._fail(batch[platform.index(True)].version, "is a platform event among a command's events")
            return
        self.count += 1
        e, event = batch[0], events[0]
        if len(batch) > 1:
            self._fail(batch[1].version, "follows a platform event, but no command caused it")
        elif not isinstance(event, PlatformEvent) or type(event).__struct_config__.tag != e.type:
            self._fail(e.version, f"is recorded as {e.type} but holds another event")
        elif any(v is not None for v in (e.cause, e.command, e.seat, e.idempotency_key, e.provenance, e.facts)):
            self._fail(e.version, "is a platform event that names a command, seat, key or provenance")
        elif state is None or self.decider.is_terminal(state):
            self._fail(e.version, "is a platform event recorded before the game began or after it ended")
        elif isinstance(event, SeatReissued) and not self._human(event.seat, e.version):
            self._fail(e.version, f"re-issues {seat_name(event.seat)}, which is not a human seat of the game")
        elif isinstance(event, SeatNamed) and not self._named(event, e.version):
            self._fail(e.version, f"names {seat_name(event.seat)} with a name no seat may take, or not a human seat")

    def _named(self, event: SeatNamed, version: int) -> bool:
        """Whether a human seat took a name it could take (domain.names): what the route checked."""
        try:
            ok = self._human(event.seat, version) and check_name(event.name, self.names, event.seat) == event.name
        except DomainError:
            return False
        self.names[event.seat] = event.name
        return ok

    def _human(self, seat: int, version: int) -> bool:
        if not 0 <= seat < len(self.seats):
            return False
        return version <= self.prefix or self.seats[seat].get("type") == "human"

    def _fail(self, version: int, why: str) -> None:
        self.failure, self.why = version, f"event {version} {why}"

    def result(self) -> tuple[bool, str, int | None]:
        """The check's verdict, what it says, and the first failing event (None: none)."""
        if self.failure is not None:
            return False, self.why, self.failure
        if not self.count:
            return True, "no platform events (seat re-issues, names) in this game", None
        return (
            True,
            f"{self.count} platform events (seat re-issues, names), each on its own, caused by no command, "
            "recorded while the game ran and naming one of its human seats (with a name it may take)",
            None,
        )
