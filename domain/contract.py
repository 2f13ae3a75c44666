"""A game's HTTP contract, game-agnostic: the msgspec types its answers have on the wire, and the
renaming that gives every one of its types a name carrying the game's (`PantheonMove`), so that a
second game's schemas never collide with the first's.

`renamed` copies a union of Structs (commands, events) under new names, optionally without some
fields (a wire command has no `seat`: the server adds it from the token) and without some tags
(`create_game` is not sent to a game). The copies keep tags, defaults and strictness, so what
decodes as the copy converts back to the original with the dropped fields added."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar, Union

import msgspec

T = TypeVar("T")
# A field only some answers have (a seat's own part of a view, the options of one decision):
# left out of the JSON while UNSET, `null` where None. Documented as `T | null`, not required.
Maybe = Union[T, None, msgspec.UnsetType]  # noqa: UP007 - a generic alias
UNSET = msgspec.UNSET


def present(value: Maybe[T]) -> T:
    """A field this answer has (one of its decision's own blocks): neither left out nor null."""
    if value is None or value is UNSET:
        raise ValueError("the answer has no such field")
    return value


@dataclass(frozen=True, slots=True)
class Contract:
    """The wire types of one game kind, all named `<name>…` (the HTTP layer wraps them in answers
    tagged with the game's `kind`, so the answers of all games form unions discriminated by `kind`).
    Its score view is a read model's: `projections.registry` has it."""

    name: str  # the prefix of its schema names: "Pantheon"
    recorded: Any  # the union of the game's own commands as its log records them (with `seat`)
    command: Any  # the union of commands a seat's client sends (no seat, nothing the platform makes)
    event: Any  # the union of its events' payloads as a viewer sees them (tagged by `type`)
    options: type  # the game options a creator chooses (without `players`)
    game_options: type  # the options a game records (`players` included)
    outcome: type  # a finished game's outcome
    view: type  # the board: public view, or a seat's view
    refers: type  # what a choice is about
    blocks: type  # the legal options as building blocks

    def to_domain(self, command: Any, seat: int) -> Any:
        """A wire command sent by `seat` as the command the game records."""
        return msgspec.convert({**msgspec.to_builtins(command), "seat": seat}, self.recorded)

    def to_wire(self, command: Any) -> dict[str, Any]:
        """A recorded seat command as its wire form (the body a client sends), in builtins."""
        body: dict[str, Any] = msgspec.to_builtins(command)
        body.pop("seat", None)
        return body


def _rename(tp: Any, rename: Callable[[type[msgspec.Struct]], type]) -> Any:
    origin = typing.get_origin(tp)
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        return rename(tp)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_rename(a, rename) for a in typing.get_args(tp))]  # noqa: UP007
    if origin in (list, dict, tuple, set, frozenset):
        return origin[tuple(_rename(a, rename) for a in typing.get_args(tp))]
    if origin is typing.Annotated:
        inner, *meta = typing.get_args(tp)
        return typing.Annotated[(_rename(inner, rename), *meta)]
    return tp


def renamed(
    union: Any,
    prefix: str,
    *,
    module: str,
    drop: Iterable[str] = (),
    without_tags: Iterable[str] = (),
    names: dict[str, str] | None = None,
) -> Any:
    """The union of copies of `union`'s Structs (and of the Structs they hold), each named
    `prefix + name` (or `prefix + names[name]`), without the fields `drop` and the members tagged
    `without_tags`."""
    drop, without_tags, names = set(drop), set(without_tags), names or {}
    made: dict[type, type] = {}

    def rename(struct: type[msgspec.Struct]) -> type:
        if struct not in made:
            config = struct.__struct_config__
            described = [
                (
                    f.name,
                    _rename(f.type, rename),
                    f.default
                    if f.default is not msgspec.NODEFAULT
                    else (
                        msgspec.field(default_factory=f.default_factory)
                        if f.default_factory is not msgspec.NODEFAULT
                        else msgspec.NODEFAULT
                    ),
                )
                for f in msgspec.structs.fields(struct)
                if f.name not in drop
            ]
            fields: list[tuple[str, Any] | tuple[str, Any, Any]] = [
                (n, t) if d is msgspec.NODEFAULT else (n, t, d) for n, t, d in described
            ]
            copy = msgspec.defstruct(
                prefix + names.get(struct.__name__, struct.__name__),
                fields,
                module=module,
                kw_only=True,
                frozen=config.frozen,
                forbid_unknown_fields=config.forbid_unknown_fields,
                tag_field=config.tag_field,
                tag=config.tag,
                array_like=config.array_like,
            )
            copy.__doc__ = struct.__doc__
            made[struct] = copy
        return made[struct]

    members = [
        m for m in typing.get_args(union) or (union,) if getattr(m.__struct_config__, "tag", None) not in without_tags
    ]
    return typing.Union[tuple(rename(m) for m in members)]  # noqa: UP007


def tags(union: Any) -> list[str]:
    """The tags of a union of tagged Structs."""
    return [
        str(t.__struct_config__.tag)
        for t in typing.get_args(union) or (union,)
        if isinstance(t, type) and issubclass(t, msgspec.Struct) and t.__struct_config__.tag is not None
    ]
