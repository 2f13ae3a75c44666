"""The one error the shell raises for a request it refuses."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refuses: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
