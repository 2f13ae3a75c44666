"""Read models in Redis: their keys, a write that never goes back in version, and reads at version ≥ N."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec
from redis.asyncio import Redis

from domain import games
from projections import GameFold, Projection, public_field, seat_field
from service.store.codec import Envelope
from service.store.streams import EventStore

GROUP = "projectors"  # the consumer group every projector process joins on each feed partition
Catalog = dict[str, tuple[Projection, ...]]  # game kind -> its projections
# Every registered game's read models (the registry says which).
PROJECTIONS: Catalog = {game.kind: tuple(game.projections) for game in games.GAMES.values()}

# Modes of the write: a projector writes only newer versions (redelivery and a slower peer
# change nothing); a rebuild also rewrites the same version; a forced rebuild (an operator's
# `projections rebuild`) also replaces models of any other projection version.
NEWER, SAME_OR_NEWER, FORCE = 0, 1, 2

# KEYS: the game's feed partition, then one read-model hash per projection (same hash tag).
# ARGV: group, mode, version, the hash of event `version`, n ids to ack, the ids, then per read
#       model: its projection version, a count of fields, the version and hash of a stored model
#       known to hold an event the log lost ('' and '' for none: see `lost_models`), field/value
#       pairs. A model is replaced when the write is newer (or as the mode allows), or when it is
#       still that lost one: then even by an older version (a model ahead of the log after a
#       failover goes back to the log's head), and only then, so a slower writer never goes back.
# Returns {models written, models kept that are ahead of this write or at its version with another
# hash} (the second: a peer's newer work, or a model on an event the log lost: see `lost_models`).
_WRITE = """
local mode = tonumber(ARGV[2])
local version = tonumber(ARGV[3])
local n_ids = tonumber(ARGV[5])
local at = 6 + n_ids
local written, kept = 0, 0
for k = 2, #KEYS do
  local pv, nf = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
  local lost_v, lost_h = ARGV[at + 2], ARGV[at + 3]
  local stored = redis.call('HMGET', KEYS[k], 'pv', 'v', 'h')
  local spv, sv = tonumber(stored[1] or '0'), tonumber(stored[2] or '0')
  local newer = pv > spv or (pv == spv and version > sv)
  local lost = lost_v ~= '' and pv == spv and sv == tonumber(lost_v) and (stored[3] or '') == lost_h
  if newer or lost or (mode >= 1 and pv == spv and version == sv) or (mode == 2 and pv ~= spv) then
    redis.call('DEL', KEYS[k])
    redis.call('HSET', KEYS[k], 'pv', pv, 'v', version, 'h', ARGV[4], unpack(ARGV, at + 4, at + 3 + 2 * nf))
    written = written + 1
  elseif pv == spv and (sv > version or (sv == version and (stored[3] or '') ~= ARGV[4])) then
    kept = kept + 1
  end
  at = at + 4 + 2 * nf
end
if n_ids > 0 then redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 6, 5 + n_ids)) end
return {written, kept}
"""

# KEYS: a game's events stream. ARGV: first and last entry id. The stored envelopes (each one
# msgpack value, field "e") concatenated behind a msgpack array32 header: one msgpack array.
_READ = """
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[2])
local parts = {}
for i, entry in ipairs(entries) do
  local fields = entry[2]
  for j = 1, #fields, 2 do
    if fields[j] == 'e' then parts[#parts + 1] = fields[j + 1] end
  end
end
local n = #parts
return string.char(0xdd, math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256,
                   math.floor(n / 256) % 256, n % 256) .. table.concat(parts)
"""

_JSON = msgspec.json.Encoder()
_ENVELOPES = msgspec.msgpack.Decoder(list[Envelope])
_DECODERS: dict[int, msgspec.msgpack.Decoder] = {}


class ReadModelMissing(LookupError):
    """No such game, projection or seat."""


def event_decoder(kind: str) -> msgspec.msgpack.Decoder:
    """The decoder of a game kind's domain events (built once)."""
    decider = games.get(kind).decider
    key = id(decider.event_type)
    if key not in _DECODERS:
        _DECODERS[key] = msgspec.msgpack.Decoder(decider.event_type)
    return _DECODERS[key]


def rm_key(store: EventStore, game: str, name: str) -> str:
    """The hash holding read model `name` of a game: pv, v, "public" and "seat:N" views as JSON."""
    return store.keys(game).read_model(name)


def versions_key(prefix: str) -> str:
    """The hash of projection name -> version that the stored read models were built with."""
    return f"{prefix}:projections:versions"


def feed_of(store: EventStore, game: str) -> str:
    return store.keys(game).feed


async def write_views(redis: Redis, store: EventStore, game: str, fold: GameFold, *,
                      names: Iterable[str] | None = None, ack: Sequence[bytes] = (), mode: int = NEWER,
                      last_hash: str = "", lost: dict[str, tuple[int, str]] | None = None,
                      kept: list[int] | None = None) -> int:
    """Store the views of `fold` (the projections named, or all) at its version, with `last_hash`
    (the hash of its last event), unless the stored ones are newer; but a model in `lost` (name ->
    its stored version and hash, which the log no longer holds) is replaced while it is still that
    one, whatever its version. Ack `ack` on the game's feed partition in the same step. The count
    written; `kept` gets the count of models left ahead of this write or at its version with another
    hash."""
    keys, args = [feed_of(store, game)], [GROUP, mode, fold.version, last_hash, len(ack), *ack]
    versions = {p.name: p.version for p in fold.projections}
    for name, fields in fold.views(names).items():
        keys.append(rm_key(store, game, name))
        lost_v, lost_h = (lost or {}).get(name, ("", ""))
        args += [versions[name], len(fields), lost_v, lost_h]
        for field, view in fields.items():
            args += [field, _JSON.encode(view)]
    written, ahead = await redis.eval(_WRITE, len(keys), *keys, *args)
    if kept is not None:
        kept.append(int(ahead))
    return int(written)


async def lost_models(store: EventStore, game: str, projections: Sequence[Projection]) -> dict[str, tuple[int, str]]:
    """The game's stored read models built on an event its log no longer holds (name -> their
    version and last hash): the log's event at their version is gone or has another hash. A
    failover can lose an event that was never acknowledged but was already projected; the next
    append then reuses its version. Models stored without a hash (before hashes were kept) are
    taken as they are."""
    async with store.redis.pipeline(transaction=False) as pipe:
        for p in projections:
            pipe.hmget(rm_key(store, game, p.name), "pv", "v", "h")
        rows = await pipe.execute()
    stored = {p.name: (int(v), h.decode()) for p, (pv, v, h) in zip(projections, rows)
              if pv is not None and int(pv) == p.version and h and int(v) > 0}
    logged: dict[int, str | None] = {}
    for version in sorted({v for v, _ in stored.values()}):
        found = await store.read(game, version - 1, version)
        logged[version] = found[0].hash if found else None
    return {name: (v, h) for name, (v, h) in stored.items() if logged[v] != h}


async def stored_versions(redis: Redis, store: EventStore, game: str, projections: Sequence[Projection]) -> int:
    """The version every one of these read models of the game reached (0 if any is missing or
    was built by another projection version)."""
    async with redis.pipeline(transaction=False) as pipe:
        for p in projections:
            pipe.hmget(rm_key(store, game, p.name), "pv", "v")
        rows = await pipe.execute()
    versions = [int(v) if pv is not None and int(pv) == p.version else 0
                for p, (pv, v) in zip(projections, rows)]
    return min(versions, default=0)


async def read_envelopes(store: EventStore, game: str, after: int = 0, until: int | None = None) -> list[Envelope]:
    """Like `store.read`, but as one msgpack array built in Redis: parsing one bulk string is
    several times faster than redis-py parsing thousands of stream entries (rebuild speed)."""
    end = f"{until}-1" if until is not None else "+"
    blob = await store.redis.eval(_READ, 1, store.keys(game).events, f"{after + 1}-1", end)
    envelopes = _ENVELOPES.decode(blob)
    if not envelopes and store.cold is not None:  # an archived game: its events are in the archive
        return await store.read(game, after, until)
    return envelopes


async def fold_from_store(store: EventStore, game: str, projections: Sequence[Projection], kind: str,
                          until: int | None = None) -> GameFold:
    """The projections folded over the game's events 1..until (all by default)."""
    return (await fold_with_hash(store, game, projections, kind, until))[0]


async def fold_with_hash(store: EventStore, game: str, projections: Sequence[Projection], kind: str,
                         until: int | None = None) -> tuple[GameFold, str]:
    """Like `fold_from_store`, with the hash of the last event folded ('' for none)."""
    decoder = event_decoder(kind)
    fold, last_hash = GameFold(projections), ""
    for e in await read_envelopes(store, game, 0, until):
        fold.apply(e.version, decoder.decode(e.payload))
        last_hash = e.hash
    return fold, last_hash


async def _kind(store: EventStore, game: str) -> str:
    kind, = await store.fields(game, "kind")
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


async def read_model_json(redis: Redis, store: EventStore, game: str, name: str, seat: int | None = None, *,
                          min_version: int = 0, catalog: Catalog = PROJECTIONS,
                          or_public: bool = False) -> tuple[int, bytes]:
    """The view `name` (public, or `seat`'s own) as JSON with the version it reflects: the stored
    read model when it reflects at least `min_version` (and exists, in the current projection
    version, and is not ahead of the log nor at its head with another event's hash: a failover
    lost what it shows), otherwise folded from the event stream right now (the newest version; an
    archived game's, from the archive). With `or_public`, a seat the projection has no view of at
    that version gets the public one."""
    async with redis.pipeline(transaction=False) as pipe:  # one round trip: the same hash tag
        pipe.hmget(store.keys(game).meta, "kind", "version", "hash")
        pipe.hmget(rm_key(store, game, name), "pv", "v", "h", _field(seat), _field(None))
        (kind, head, head_hash), (pv, v, h, body, public) = await pipe.execute()
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


async def read_model(redis: Redis, store: EventStore, game: str, name: str, seat: int | None = None, *,
                     min_version: int = 0, catalog: Catalog = PROJECTIONS) -> tuple[int, dict]:
    """Like `read_model_json`, decoded."""
    version, body = await read_model_json(redis, store, game, name, seat, min_version=min_version, catalog=catalog)
    return version, msgspec.json.decode(body)


async def view_at(store: EventStore, game: str, name: str, seat: int | None = None, at: int | None = None, *,
                  catalog: Catalog = PROJECTIONS, or_public: bool = False) -> tuple[int, bytes]:
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
