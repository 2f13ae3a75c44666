"""Strict copies of the API's answer types: every Struct forbids unknown fields, so converting a real
answer into its declared type fails on a field the schema does not describe, as well as on a missing
required field or a wrong type."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.contract import _rename

_made: dict[type, type] = {}


def _copy(struct: type) -> type:
    if struct not in _made:
        config = struct.__struct_config__
        _made[struct] = struct  # placeholder against cycles
        fields = []
        for f in msgspec.structs.fields(struct):
            tp = _rename(f.type, _copy)
            if f.default is not msgspec.NODEFAULT:
                fields.append((f.name, tp, f.default))
            elif f.default_factory is not msgspec.NODEFAULT:
                fields.append((f.name, tp, msgspec.field(default_factory=f.default_factory)))
            else:
                fields.append((f.name, tp))
        renames = {f.name: f.encode_name for f in msgspec.structs.fields(struct) if f.encode_name != f.name}
        _made[struct] = msgspec.defstruct(
            struct.__name__,
            fields,
            kw_only=True,
            forbid_unknown_fields=True,
            tag_field=config.tag_field,
            tag=config.tag,
            array_like=config.array_like,
            rename=renames or None,
        )
    return _made[struct]


def strict(tp: Any) -> Any:
    """`tp` with every Struct in it forbidding unknown fields."""
    return _rename(tp, _copy)


def check(body: bytes, tp: Any) -> Any:
    """The JSON `body` decoded strictly as `tp` (a msgspec.ValidationError names the first mismatch)."""
    return msgspec.json.decode(body, type=strict(tp), strict=True)
