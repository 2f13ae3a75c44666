"""Redis, and its one door: nothing else of the service imports redis, holds a client, sends a
command or spells a key (tests/test_redis_door.py). The event store (`streams.EventStore`: one
stream per game, an atomic Lua append, partitioned feeds) and the adapters it holds, each owning
its keys and its scripts: the game's records, whom games await, the lobby, read models, the
projectors' feeds, the archiver's claims, quotas; the AI turns' adapter (`turns`, synchronous, for
RQ); every key they keep (`keys`: docs/redis.md's table). Also the codec of everything stored,
connections (a bounded, blocking pool), the fan-out that follows the streams of watched games for a
whole process, the deployment's server secret, the embedded Redis, and what the store asks of the
archive (`cold`: a game not in Redis is read from it, through a reader the shell plugs in). Imports
nothing else of the service but its settings."""
