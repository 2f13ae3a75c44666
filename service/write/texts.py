"""Each event in words for a viewer, when read (never stored): the game's `narrate` of the event
as that viewer may see it, given the state before it, folded from the log, with the seats' names
of that moment (their `seat_named` events) in place of "Player B"."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from domain.kernel import Decider, SeatNamed, evolve, fold, narrate, redact
from domain.names import with_names
from service.store.codec import Envelope
from service.store.streams import EventStore

from .folds import decode_event


class Texts:
    """Each event in words for a viewer (the game's `narrate` of the event as that viewer may see
    it, and of the state before it), never stored. The state is folded from the log: per process,
    the last state folded for each of `size` (game, viewer) pairs is kept (least recently used
    dropped first), so that reading on from where the last read ended (a stream, the next page)
    folds only the new events; any other read folds the log from its start. A kept state is used
    only if the next event chains to it (`prev_hash`): after a failover that replaced events, a
    text is never of another history. (States are updated in place by `evolve`: each pair has its
    own, never shared with the fold cache of the write path.)"""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int | None], tuple[int, str, Any, dict[int, str]]] = OrderedDict()

    async def of(
        self, store: EventStore, decider: Decider, game: str, envelopes: Sequence[Envelope], viewer: int | None
    ) -> list[str]:
        """The text of each of `envelopes` (consecutive events of `game`) for `viewer`."""
        if not envelopes:
            return []
        first, key = envelopes[0], (game, viewer)
        version, last_hash, state, names = self._states.pop(key, (0, "", None, {}))
        if version != first.version - 1 or (version and first.prev_hash != last_hash):
            prefix = await store.read(game, 0, first.version - 1) if first.version > 1 else []
            events = [decode_event(decider, e) for e in prefix]
            state = fold(decider, events) if prefix else None
            names = {e.seat: e.name for e in events if isinstance(e, SeatNamed)}
        texts = []
        for e in envelopes:
            event = decode_event(decider, e)
            texts.append(with_names(narrate(decider, state, redact(decider, event, viewer), viewer), names))
            state = evolve(decider, state, event)
            if isinstance(event, SeatNamed):
                names = {**names, event.seat: event.name}
        self._states[key] = (envelopes[-1].version, envelopes[-1].hash, state, names)
        while len(self._states) > self.size:
            self._states.popitem(last=False)
        return texts
