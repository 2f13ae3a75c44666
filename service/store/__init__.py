"""Redis: the event store (one stream per game, an atomic Lua append, partitioned feeds), the
codec of everything stored, connections (a bounded, blocking pool), the fan-out that follows the
streams of watched games for a whole process, the deployment's server secret, the embedded
Redis, and what the store asks of the archive (`cold`: a game not in Redis is read from it, through
a reader the shell plugs in). Imports nothing else of the service."""
