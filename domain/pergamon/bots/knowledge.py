"""What a seat knows: the whole state but for what it may not see. Pergamon's state holds no
secret (rules §10); with vp_visibility "secret", other seats' VP are private, so a bot's copy
holds them as 0 ("unknown"). Bots never get more than this."""

from __future__ import annotations

import hashlib

import msgspec

from ..state import State, clone

_ENCODER = msgspec.msgpack.Encoder()


class PergamonKnowledge(msgspec.Struct, kw_only=True):
    """A seat's knowledge (None: a spectator's) as a state a bot may read and play on."""

    seat: int | None
    state: State


def seat_knowledge(state: State, seat: int | None) -> PergamonKnowledge:
    """What `seat` may know of `state`, as a copy (the original is never shared)."""
    known = clone(state)
    if state.options.vp_visibility == "secret" and not state.finished:
        for i, s in enumerate(known.seats):
            if i != seat:
                s.vp = 0
    return PergamonKnowledge(seat=seat, state=known)


def view_hash(knowledge: PergamonKnowledge) -> str:
    """A stable hash of a seat's knowledge (recorded with every AI command)."""
    return hashlib.sha256(_ENCODER.encode(knowledge)).hexdigest()
