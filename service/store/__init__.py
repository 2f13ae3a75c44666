"""Redis: the event store (one stream per game, an atomic Lua append, partitioned feeds), the
codec of everything stored, connections (a bounded, blocking pool), the fan-out that follows the
streams of watched games for a whole process, the deployment's server secret, and the embedded
Redis. Imports nothing else of the service."""
