"""The `pantheon` command line and the processes it runs: the roles (api, projector, worker,
serve with its supervision), audit, export and import, simulate and ladder. The top of the
shell: it may import any package, and none imports it."""

from .commands import main

__all__ = ["main"]
