"""What every registered game stores (its events, and the commands recorded with them) has one
encoding: no set, whose encoded order follows its hash table, which decoding does not rebuild. An
export is re-encoded from its decoded events, and must give back the bytes the hash chain covers."""

from __future__ import annotations

import typing
from collections.abc import Iterator

import msgspec
import pytest

from domain import games


def _types(tp) -> Iterator[object]:
    """`tp` and every type it is made of: struct fields, union members, items, keys and values."""
    seen, todo = set(), [tp]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        yield t
        if isinstance(t, type) and issubclass(t, msgspec.Struct):
            todo += [f.type for f in msgspec.structs.fields(t)]
        else:
            todo += typing.get_args(t)


@pytest.mark.parametrize("kind", games.kinds())
def test_no_event_or_recorded_command_of_a_game_holds_a_set(kind):
    decider = games.get(kind).decider
    stored = [*_types(decider.event_type), *_types(decider.command_type)]
    assert [t for t in stored if t in (set, frozenset) or typing.get_origin(t) in (set, frozenset)] == []
