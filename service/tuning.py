"""Process tuning for CPU-bound playouts (simulate, ladder)."""

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
