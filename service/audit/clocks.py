"""The audit's check of a game's turn clocks: the clocks folded again from the log (the choice its
first event published, the times its appends recorded on the Redis clock), and every time-out held
against them. A time-out is valid only for the seat whose clock ran then, with the deadline the
log gives, seen and appended no earlier than that deadline; an outage given back must lie in the past."""

from __future__ import annotations

import msgspec

from domain import clock
from domain.clock import ClockChoice, Logged
from domain.kernel import ClockPaused, Decider, TimedOut, logged_event_type
from domain.words import player_name
from service.store.codec import Envelope


def check_clocks(envelopes: list[Envelope], decider: Decider) -> tuple[bool | None, str, int | None]:
    """(ok, in words, the first failing event); ok None: the log cannot be read (the replay says why)."""
    published = (envelopes[0].facts or {}).get("clock") if envelopes else None
    decode = msgspec.msgpack.Decoder(logged_event_type(decider))
    try:
        events = [decode.decode(e.payload) for e in envelopes]
        choice = None if published is None else msgspec.json.decode(published, type=ClockChoice)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):  # a changed byte may break a string
        return None, "the log or its clocks cannot be read", None
    timed = [e for e, event in zip(envelopes, events) if isinstance(event, TimedOut | ClockPaused)]
    if choice is None:
        if timed:
            return False, f"event {timed[0].version} is a clock's event in a game without clocks", timed[0].version
        return True, "no clocks in this game", None
    clocks, state, count = clock.start(choice), decider.initial_state(), 0
    for batch in _batches(list(zip(envelopes, events))):
        e, event = batch[0]
        if isinstance(event, TimedOut):
            count += 1
            if (why := _early(clocks, e, event)) is not None:
                return False, f"event {e.version} {why}", e.version
        elif isinstance(event, ClockPaused) and not event.from_ms <= event.to_ms <= e.recorded_at:
            return False, f"event {e.version} gives back an outage that had not ended when it was recorded", e.version
        logged = [Logged(e.recorded_at, i == 0, event) for i, (e, event) in enumerate(batch)]
        clocks, state = clock.follow(decider, clocks, state, logged)
    return True, f"{count} time-outs, each appended past the deadline the log gives its seat's clock", None


def forfeit_scores(envelopes: list[Envelope], decider: Decider) -> str | None:
    """In words, how a game that ended by a forfeit (its last event) ranked its seats; None otherwise."""
    if not envelopes or envelopes[-1].type != "timed_out":
        return None
    try:
        event = msgspec.msgpack.decode(envelopes[-1].payload, type=TimedOut)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return None  # the replay names the event that cannot be read
    if event.then != "forfeit":
        return None
    return f"ended when {player_name(event.seat)}'s time ran out: ranked last, the others by their scores then"


def _early(clocks: clock.Clocks, e: Envelope, event: TimedOut) -> str | None:
    """Why a time-out is not valid at this point of the log (None: it is)."""
    deadline = clock.deadline(clocks)
    if deadline is None or clocks.seat != event.seat:
        return f"times out seat {event.seat}, whose clock did not run then"
    if event.deadline_ms != deadline:
        return f"records the deadline {event.deadline_ms}, but the log gives {deadline}"
    if event.observed_ms < deadline or e.recorded_at < deadline:
        return f"is a time-out appended {deadline - min(event.observed_ms, e.recorded_at)} ms before the deadline"
    if event.then != clocks.choice.on_time_out:
        return f"does {event.then!r} on a time-out, but the game chose {clocks.choice.on_time_out!r}"
    return None


def _batches(log: list[tuple[Envelope, object]]) -> list[list[tuple[Envelope, object]]]:
    """The events of each append (a command's, or a platform event on its own)."""
    batches: list[list[tuple[Envelope, object]]] = []
    for e, event in log:
        if e.cause is not None or e.command is None or not batches:
            batches.append([])
        batches[-1].append((e, event))
    return batches
