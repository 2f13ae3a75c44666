"""Process tuning of the cyclic garbage collector: for CPU-bound playouts (simulate, ladder) and for
long-running servers (the API)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def fewer_gc_passes(threshold: int = 100_000) -> Iterator[None]:
    """Playouts allocate many short-lived, acyclic objects (events, scratch lists) that reference
    counting frees at once; CPython's default gen-0 threshold (700) makes the cyclic collector
    scan them over and over (about a fifth of the run time). Raise it while playing."""
    old = gc.get_threshold()
    gc.set_threshold(threshold, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)


SERVING_GEN0 = 7000  # CPython's default is 700


def for_serving(gen0: int = SERVING_GEN0) -> None:
    """Before a server starts serving: what is loaded by now (modules, the app's routes, its OpenAPI
    schema: about 95,000 objects in the API) is never garbage, so the collector stops scanning it
    (`gc.freeze`), and its youngest generation is collected ten times less often, so that a request's
    short-lived objects die by reference counting before a collection promotes them. At 1,000 games
    at a human pace the collector took 0.23 ms of the API's CPU per command and paused it up to
    200 ms for a full collection; after, 0.014 ms and no full collection in 45 s
    (docs/benchmarks.md, "The garbage collector")."""
    gc.freeze()
    gc.set_threshold(gen0, *gc.get_threshold()[1:])
