"""The shell: everything that does I/O around the pure core (`domain/`, `projections/`).

Its packages, top to bottom; a package imports only from the ones below it (the contracts in
pyproject.toml's [tool.importlinter], checked by tests/test_layout.py):

- `cli`    the `pantheon` command line and the processes it runs (roles, supervision, simulate)
- `http`   the Litestar app: one module per resource, auth, problems, OpenAPI
- `ai`, `audit`, `read`  side by side, none imports another:
  `ai` AI turns on RQ (scheduler, sweeper, worker) and the bot ladder;
  `audit` audits, exports, imports, forks and lineage;
  `read` the projector and the read models it keeps in Redis
- `write`  the write path: commands in, events out (one `submit` for people and AI)
- `store`  Redis: the event store (streams, Lua append), the codec, the embedded Redis
- `config`, `tuning`, `errors`  settings from the environment; process tuning for playouts; what
  the service refuses, by stable code (no HTTP status below `http`)

A game reaches the shell only through the registry `domain.games`: no module here names a game.
"""
