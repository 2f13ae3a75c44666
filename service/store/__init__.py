"""Redis: the event store (one stream per game, an atomic Lua append, partitioned feeds), the
codec of everything stored, the deployment's server secret, and the embedded Redis. Imports
nothing else of the service."""
