"""`GameService`: the write path's operations by name over one `Games`, for the layers above (HTTP,
AI, audit). Each operation is a function of its own module that takes the `Games` it works on;
nothing in service/write imports this facade (pyproject.toml's contract `write-no-circle`)."""

from __future__ import annotations

from . import clocks as _clocks
from . import create as _create
from . import names as _names
from . import reads as _reads
from . import rematch as _rematch
from . import seats as _seats
from . import submit as _submit
from .service import Games


class GameService(Games):
    """Games over an event store, with the write path's operations as methods."""

    create = _create.create
    start = _create.start
    claim = _seats.claim
    reissue = _seats.reissue
    claim_named = _names.claim_named
    name_seat = _names.name_seat
    hand_to_ai = _seats.hand_to_ai
    take_back = _seats.take_back
    rematch = _rematch.rematch
    submit = _submit.submit
    record_rejected = _submit.record_rejected
    rejected = _submit.rejected
    state_at = _reads.state_at
    events = _reads.events
    clocks_of = _clocks.clocks_of
    time_out = _clocks.time_out
    pause = _clocks.pause
