"""Cursors of paged answers: opaque strings naming where the last page ended."""

from __future__ import annotations

import base64
import binascii
import re

from service.errors import Code, ServiceError

MAX_CURSOR = 256
CURSOR_PATTERN = r"^[A-Za-z0-9_-]{1,256}$"  # base64url, unpadded
MAX_SCAN = 1000  # listed games one lobby page looks at, at most (filters may skip most of them)
_POSITION = re.compile(r"^([0-9]{1,15}):([!-~]{1,128})$")


def cursor_of(position: tuple[int, str]) -> str:
    """The cursor after the game created at `position[0]` with id `position[1]`."""
    return base64.urlsafe_b64encode(f"{position[0]}:{position[1]}".encode()).decode().rstrip("=")


def read_cursor(cursor: str | None) -> tuple[int, str] | None:
    """The position a cursor names (None for none); 400 `malformed_cursor` for one this server did not make."""
    if cursor is None:
        return None
    try:
        found = _POSITION.match(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode())
    except (ValueError, binascii.Error, UnicodeDecodeError):
        found = None
    if found is None:
        raise ServiceError(Code.MALFORMED_CURSOR, "`cursor` must be a `next` from an earlier page of this list.")
    return int(found.group(1)), found.group(2)
