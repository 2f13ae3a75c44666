"""Read models in Redis: their keys, a write that never goes back in version, and reads at version ≥ N."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from domain import games
from domain.kernel import logged_event_type
from projections import GameFold, Projection, public_field, seat_field
from projections.registry import projections_for
from service.store.codec import Envelope
from service.store.models import GROUP as GROUP  # the projectors' consumer group (named from here too)
from service.store.models import ModelWrite
from service.store.streams import EventStore

Catalog = dict[str, tuple[Projection, ...]]  # game kind -> its projections
# Every hosted game's read models: the domain's registry says which games, the read-model registry
# which projections each has (a hosted game without read models fails here, at import).
PROJECTIONS: Catalog = {kind: projections_for(kind) for kind in games.kinds()}

# Modes of the write: a projector writes only newer versions (redelivery and a slower peer
# change nothing); a rebuild also rewrites the same version; a forced rebuild (an operator's
# `projections rebuild`) also replaces models of any other projection version.
NEWER, SAME_OR_NEWER, FORCE = 0, 1, 2

_JSON = msgspec.json.Encoder()
_ENVELOPES = msgspec.msgpack.Decoder(list[Envelope])
_DECODERS: dict[int, msgspec.msgpack.Decoder] = {}


class ReadModelMissing(LookupError):
    """No such game, projection or seat."""


def event_decoder(kind: str) -> msgspec.msgpack.Decoder:
    """The decoder of the events a game kind's log holds, its own and the platform's (built once)."""
    decider = games.get(kind).decider
    key = id(decider.event_type)
    if key not in _DECODERS:
        _DECODERS[key] = msgspec.msgpack.Decoder(logged_event_type(decider))
    return _DECODERS[key]


def rm_key(store: EventStore, game: str, name: str) -> str:
    """The hash holding read model `name` of a game: pv, v, "public" and "seat:N" views as JSON."""
    return store.models.key(game, name)


async def write_views(
    store: EventStore,
    game: str,
    fold: GameFold,
    *,
    names: Iterable[str] | None = None,
    ack: Sequence[bytes] = (),
    mode: int = NEWER,
    last_hash: str = "",
    lost: dict[str, tuple[int, str]] | None = None,
    kept: list[int] | None = None,
) -> int:
    """Store the views of `fold` (the projections named, or all) at its version, with `last_hash`
    (the hash of its last event), unless the stored ones are newer; but a model in `lost` (name ->
    its stored version and hash, which the log no longer holds) is replaced while it is still that
    one, whatever its version. Ack `ack` on the game's feed partition in the same step. The count
    written; `kept` gets the count of models left ahead of this write or at its version with another
    hash."""
    models = model_writes(fold, names=names, lost=lost)
    written, ahead = await store.models.write(game, fold.version, last_hash, models, mode=mode, ack=ack)
    if kept is not None:
        kept.append(ahead)
    return int(written)


def model_writes(
    fold: GameFold, *, names: Iterable[str] | None = None, lost: dict[str, tuple[int, str]] | None = None
) -> list[ModelWrite]:
    """The views of `fold` (the projections named, or all) as JSON, ready for `store.models.write`;
    a model in `lost` is replaced while it is still that lost one (see `write_views`)."""
    versions = {p.name: p.version for p in fold.projections}
    return [
        ModelWrite(
            name, versions[name], {f: _JSON.encode(v) for f, v in fields.items()}, (lost or {}).get(name, ("", ""))
        )
        for name, fields in fold.views(names).items()
    ]


def decode_envelopes(blob: bytes) -> list[Envelope]:
    """The envelopes of one `store.models.envelopes_blob`."""
    return _ENVELOPES.decode(blob)


async def lost_models(store: EventStore, game: str, projections: Sequence[Projection]) -> dict[str, tuple[int, str]]:
    """The game's stored read models built on an event its log no longer holds (name -> their
    version and last hash): the log's event at their version is gone or has another hash. A
    failover can lose an event that was never acknowledged but was already projected; the next
    append then reuses its version. Models stored without a hash (before hashes were kept) are
    taken as they are."""
    rows = await store.models.stored(game, [p.name for p in projections], "pv", "v", "h")
    stored = {
        p.name: (int(v), h.decode())
        for p, (pv, v, h) in zip(projections, rows)
        if pv is not None and int(pv) == p.version and h and int(v) > 0
    }
    logged: dict[int, str | None] = {}
    for version in sorted({v for v, _ in stored.values()}):
        found = await store.read(game, version - 1, version)
        logged[version] = found[0].hash if found else None
    return {name: (v, h) for name, (v, h) in stored.items() if logged[v] != h}


async def stored_versions(store: EventStore, game: str, projections: Sequence[Projection]) -> int:
    """The version every one of these read models of the game reached (0 if any is missing or
    was built by another projection version)."""
    rows = await store.models.stored(game, [p.name for p in projections], "pv", "v")
    versions = [int(v) if pv is not None and int(pv) == p.version else 0 for p, (pv, v) in zip(projections, rows)]
    return min(versions, default=0)


async def read_envelopes(store: EventStore, game: str, after: int = 0, until: int | None = None) -> list[Envelope]:
    """Like `store.read`, but as one msgpack array built in Redis: parsing one bulk string is
    several times faster than redis-py parsing thousands of stream entries (rebuild speed)."""
    envelopes = _ENVELOPES.decode(await store.models.envelopes_blob(game, after, until))
    if not envelopes and store.cold is not None:  # an archived game: its events are in the archive
        return await store.read(game, after, until)
    return envelopes


async def fold_from_store(
    store: EventStore, game: str, projections: Sequence[Projection], kind: str, until: int | None = None
) -> GameFold:
    """The projections folded over the game's events 1..until (all by default)."""
    return (await fold_with_hash(store, game, projections, kind, until))[0]


async def fold_with_hash(
    store: EventStore, game: str, projections: Sequence[Projection], kind: str, until: int | None = None
) -> tuple[GameFold, str]:
    """Like `fold_from_store`, with the hash of the last event folded ('' for none)."""
    decoder = event_decoder(kind)
    fold, last_hash = GameFold(projections), ""
    for e in await read_envelopes(store, game, 0, until):
        fold.apply(e.version, decoder.decode(e.payload))
        last_hash = e.hash
    return fold, last_hash


async def _kind(store: EventStore, game: str) -> str:
    (kind,) = await store.records.fields(game, "kind")
    if kind is None:
        raise ReadModelMissing(f"there is no game {game!r}")
    return kind.decode()


def _projection(catalog: Catalog, kind: str, name: str) -> Projection:
    for p in catalog.get(kind, ()):
        if p.name == name:
            return p
    raise ReadModelMissing(f"there is no read model {name!r} for {kind} games")


def _field(seat: int | None) -> str:
    return public_field() if seat is None else seat_field(seat)


async def read_model_json(
    store: EventStore,
    game: str,
    name: str,
    seat: int | None = None,
    *,
    min_version: int = 0,
    catalog: Catalog = PROJECTIONS,
    or_public: bool = False,
) -> tuple[int, bytes]:
    """The view `name` (public, or `seat`'s own) as JSON with the version it reflects: the stored
    read model when it reflects at least `min_version` (and exists, in the current projection
    version, and is not ahead of the log nor at its head with another event's hash: a failover
    lost what it shows), otherwise folded from the event stream right now (the newest version; an
    archived game's, from the archive). With `or_public`, a seat the projection has no view of at
    that version gets the public one."""
    (kind, head, head_hash), (pv, v, h, body, public) = await store.models.with_meta(
        game, ("kind", "version", "hash"), name, "pv", "v", "h", _field(seat), _field(None)
    )
    if kind is None:  # not in Redis: archived (folded from the archive), or no such game
        return await view_at(store, game, name, seat, catalog=catalog, or_public=or_public)
    projection = _projection(catalog, kind.decode(), name)
    if or_public and body is None:  # a read model's fields are written together: no seat view at v
        body = public
    if body is not None and int(pv) == projection.version and int(v) >= max(min_version, 1):
        head = int(head or 0)
        if int(v) < head or (int(v) == head and (h is None or h == head_hash)):
            return int(v), body
    return await view_at(store, game, name, seat, catalog=catalog, or_public=or_public)


async def read_model(
    store: EventStore,
    game: str,
    name: str,
    seat: int | None = None,
    *,
    min_version: int = 0,
    catalog: Catalog = PROJECTIONS,
) -> tuple[int, dict]:
    """Like `read_model_json`, decoded."""
    version, body = await read_model_json(store, game, name, seat, min_version=min_version, catalog=catalog)
    return version, msgspec.json.decode(body)


async def view_at(
    store: EventStore,
    game: str,
    name: str,
    seat: int | None = None,
    at: int | None = None,
    *,
    catalog: Catalog = PROJECTIONS,
    or_public: bool = False,
) -> tuple[int, bytes]:
    """The view folded from events 1..at (replay; the newest version by default), as JSON; with
    `or_public`, the public view for a seat the projection has no view of then."""
    kind = await _kind(store, game)
    projection = _projection(catalog, kind, name)
    fold = await fold_from_store(store, game, [projection], kind, at)
    model = fold.models[0]
    if or_public and seat is not None and seat not in projection.seats(model):
        seat = None
    if seat is not None and seat not in projection.seats(model):
        raise ReadModelMissing(f"read model {name!r} has no view for seat {seat}")
    return fold.version, _JSON.encode(projection.view(model, seat))
