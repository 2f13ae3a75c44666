"""Export and import: a game as one self-contained JSON Lines file (a header line, then one line
per stored event with its envelope, the event and the command that caused it)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from domain import games
from domain.kernel import Decider, logged_event_type
from service.store.codec import Envelope, wrap_batch

FORMAT = "pantheon-export/1"


class Header(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """What an auditor needs besides the events: the commitment and, once revealed, the seed."""

    format: str = FORMAT
    game: str
    kind: str
    engine: str
    commitment: str
    seed: str | None = None  # hex; published when the game has ended
    seats: list[dict] = []
    lineage: dict | None = None  # for forks: parent, at (version), prefix_hash
    events: int = 0


class Line(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One stored event, readable: the event and its command as JSON objects."""

    version: int
    type: str
    schema: int
    event: dict[str, Any]
    recorded_at: int
    command_type: str | None = None
    seat: int | None = None
    idempotency_key: str | None = None
    command: dict[str, Any] | None = None
    facts: dict[str, str] | None = None
    provenance: dict[str, str] | None = None
    prev_hash: str
    hash: str


_JSON = msgspec.json.Encoder()
_PACK = msgspec.msgpack.Encoder()
_HEADER = msgspec.json.Decoder(Header)
_LINE = msgspec.json.Decoder(Line)


class ExportError(Exception):
    """The file is not a readable export; `version` is the event on the line that failed (0: header)."""

    def __init__(self, version: int, message: str) -> None:
        super().__init__(message)
        self.version = version


def export_lines(header: Header, envelopes: Iterable[Envelope], decider: Decider) -> Iterator[bytes]:
    """The file's lines (without newlines)."""
    events = msgspec.msgpack.Decoder(logged_event_type(decider))
    commands = msgspec.msgpack.Decoder(decider.command_type)
    yield _JSON.encode(header)
    for e in envelopes:
        yield _line(e, events.decode(e.payload), commands.decode(e.cause) if e.cause else None)


def _line(e: Envelope, event, command) -> bytes:
    return _JSON.encode(
        Line(
            version=e.version,
            type=e.type,
            schema=e.schema,
            event=msgspec.to_builtins(event),
            recorded_at=e.recorded_at,
            command_type=e.command,
            seat=e.seat,
            idempotency_key=e.idempotency_key,
            command=msgspec.to_builtins(command) if command is not None else None,
            facts=e.facts,
            provenance=e.provenance,
            prev_hash=e.prev_hash,
            hash=e.hash,
        )
    )


def decider_for(kind: str) -> Decider:
    """The decider of a registered game kind; ExportError for a kind this server does not host."""
    if kind not in games.GAMES:
        raise ExportError(0, f"unknown game kind {kind!r}")
    return games.get(kind).decider


def read_export(lines: Iterable[bytes], decider_for=decider_for) -> tuple[Header, list[Envelope]]:
    """Header and envelopes from an export, each event and command re-encoded exactly as stored.

    Every line must be exactly as it was exported (the canonical JSON of what it holds): a line
    that does not parse, or that was altered in any byte, raises ExportError naming its event.
    `decider_for(kind)` gives the game's decider."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise ExportError(0, "the file is empty")
    try:
        header = _HEADER.decode(lines[0])
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ExportError(0, f"the header line cannot be read: {error}") from None
    if _JSON.encode(header) != lines[0].strip():
        raise ExportError(0, "the header line was altered")
    decider = decider_for(header.kind)
    return header, [_envelope(header.game, number, raw.strip(), decider) for number, raw in enumerate(lines[1:], 1)]


def _envelope(game: str, number: int, raw: bytes, decider: Decider) -> Envelope:
    try:
        line = _LINE.decode(raw)
        # JSON keys are strings, also where the game's types key a dict by int (a fork's state)
        command = None if line.command is None else msgspec.convert(line.command, decider.command_type, str_keys=True)
        event = msgspec.convert(line.event, logged_event_type(decider), str_keys=True)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise ExportError(number, f"the line of event {number} cannot be read: {error}") from None
    e = Envelope(
        game=game,
        version=line.version,
        type=line.type,
        schema=line.schema,
        payload=msgspec.Raw(_PACK.encode(event)),
        recorded_at=line.recorded_at,
        command=line.command_type,
        seat=line.seat,
        idempotency_key=line.idempotency_key,
        cause=_PACK.encode(command) if command is not None else None,
        facts=line.facts,
        provenance=line.provenance,
        prev_hash=line.prev_hash,
        hash=line.hash,
    )
    if _line(e, event, command) != raw:
        raise ExportError(number, f"the line of event {number} was altered")
    return e


def chain(
    game: str, items: list[tuple[object, list]], *, recorded_at: int = 0, facts: dict[str, str] | None = None
) -> list[Envelope]:
    """Envelopes with a fresh hash chain for (command, events) pairs, as the server stores them."""
    out: list[Envelope] = []
    for command, events in items:
        prev = out[-1].hash if out else ""
        out += wrap_batch(
            game,
            len(out),
            prev,
            events,
            command,
            seat=getattr(command, "seat", None),
            recorded_at=recorded_at,
            facts=facts if not out else None,
        )
    return out
