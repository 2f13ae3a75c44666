"""One codec for everything stored or sent: msgspec msgpack for Redis, JSON for HTTP.

Encoders and decoders are built once at import."""

from __future__ import annotations

import hashlib

import msgspec

GENESIS_HASH = "0" * 64


class Envelope(msgspec.Struct, kw_only=True, frozen=True):
    """One stored event: the domain event plus where, when and why it was recorded."""

    game: str
    version: int
    type: str
    schema: int
    payload: msgspec.Raw  # the domain event, msgpack
    recorded_at: int  # milliseconds since the epoch
    command: str | None = None  # type of the command that caused it
    seat: int | None = None
    idempotency_key: str | None = None
    cause: bytes | None = None  # the whole command (msgpack), on the first event it caused
    facts: dict[str, str] | None = None  # platform facts on version 1: seed commitment, engine, lineage
    provenance: dict[str, str] | None = None  # an AI's command: bot, parameters, budget, hash of its view
    prev_hash: str = GENESIS_HASH
    hash: str = ""


PACK = msgspec.msgpack.Encoder()
UNPACK_ENVELOPE = msgspec.msgpack.Decoder(Envelope)
JSON = msgspec.json.Encoder()


def canonical_bytes(e: Envelope) -> bytes:
    """The bytes the hash chain covers: every field but the hashes, in a fixed order."""
    return PACK.encode(
        [
            e.game,
            e.version,
            e.type,
            e.schema,
            e.payload,
            e.recorded_at,
            e.command,
            e.seat,
            e.idempotency_key,
            e.cause,
            e.facts,
            e.provenance,
        ]
    )


def chain_hash(prev_hash: str, e: Envelope) -> str:
    """hash = sha256(prev_hash || canonical bytes of this event), in hex."""
    return hashlib.sha256(bytes.fromhex(prev_hash) + canonical_bytes(e)).hexdigest()


def seal(e: Envelope) -> Envelope:
    """The envelope with its hash filled in."""
    return msgspec.structs.replace(e, hash=chain_hash(e.prev_hash, e))


def wrap_batch(
    game: str,
    version: int,
    prev_hash: str,
    events: list,
    command,
    *,
    seat: int | None,
    recorded_at: int,
    idempotency_key: str | None = None,
    facts: dict[str, str] | None = None,
    provenance: dict[str, str] | None = None,
) -> list[Envelope]:
    """Envelopes for the events one command caused, decided at `version`, chained from `prev_hash`.

    The first carries the whole command (so an audit can decide it again) and any platform facts."""
    out = []
    prev = prev_hash or GENESIS_HASH
    command_type = type(command).__struct_config__.tag
    cause = PACK.encode(command)
    for i, event in enumerate(events):
        e = seal(
            Envelope(
                game=game,
                version=version + i + 1,
                type=type(event).__struct_config__.tag,
                schema=1,
                payload=msgspec.Raw(PACK.encode(event)),
                recorded_at=recorded_at,
                command=command_type,
                seat=seat,
                idempotency_key=idempotency_key,
                cause=cause if i == 0 else None,
                facts=facts if i == 0 else None,
                provenance=provenance if i == 0 else None,
                prev_hash=prev,
            )
        )
        out.append(e)
        prev = e.hash
    return out


def wrap_platform(game: str, version: int, prev_hash: str, event, *, recorded_at: int) -> Envelope:
    """The envelope of one platform event (domain.kernel.PlatformEvent) recorded after event
    `version`: caused by no command and by no seat."""
    return seal(
        Envelope(
            game=game,
            version=version + 1,
            type=type(event).__struct_config__.tag,
            schema=1,
            payload=msgspec.Raw(PACK.encode(event)),
            recorded_at=recorded_at,
            prev_hash=prev_hash or GENESIS_HASH,
        )
    )
