"""What the service refuses, by stable code: every layer raises a `ServiceError` with a `Code` and a
sentence a person understands, never an HTTP status; `service/http/problems.py` maps each code to
its status in one table (and tests/service/http/test_problems.py checks that every code has one)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from domain.kernel import DomainError


class Code(StrEnum):
    """The service's own stable codes (the rules' codes are each game's: `Refused`)."""

    # the request cannot be read as it is
    MALFORMED_REQUEST = "malformed_request"
    MALFORMED_COMMAND = "malformed_command"
    MALFORMED_CURSOR = "malformed_cursor"
    MALFORMED_CHOICE_TOKEN = "malformed_choice_token"
    UNKNOWN_CHOICE = "unknown_choice"
    UNKNOWN_QUERY_PARAMETER = "unknown_query_parameter"
    SEAT_IN_COMMAND = "seat_in_command"
    NOT_A_SEAT_COMMAND = "not_a_seat_command"
    IDEMPOTENCY_KEY_TOO_SHORT = "idempotency_key_too_short"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    # who is asking
    MISSING_TOKEN = "missing_token"
    WRONG_TOKEN = "wrong_token"
    WRONG_SEAT = "wrong_seat"
    WRONG_INVITE = "wrong_invite"
    # what is asked for does not exist
    NOT_FOUND = "not_found"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_SEAT = "unknown_seat"
    UNKNOWN_VERSION = "unknown_version"
    NO_SUCH_VIEW = "no_such_view"
    # the game is not in a state that allows it
    VERSION_CONFLICT = "version_conflict"
    READ_ONLY = "read_only"
    SEAT_TAKEN = "seat_taken"
    SEAT_NOT_HUMAN = "seat_not_human"
    SEAT_NOT_CLAIMED = "seat_not_claimed"
    NOT_HANDED_OVER = "not_handed_over"
    GAME_EXISTS = "game_exists"
    GAME_IN_PROGRESS = "game_in_progress"
    # understood, but refused as it stands
    GAME_OVER = "game_over"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    UNKNOWN_KIND = "unknown_kind"
    UNKNOWN_LEVEL = "unknown_level"
    WRONG_KIND = "wrong_kind"
    WRONG_SEAT_CLAIM = "wrong_seat_claim"
    WRONG_SEAT_COUNT = "wrong_seat_count"
    BAD_CLOCK = "bad_clock"
    FORK_INSIDE_COMMAND = "fork_inside_command"
    FORK_NOT_SUPPORTED = "fork_not_supported"
    AUDIT_FAILED = "audit_failed"
    # too much, too often
    RATE_LIMITED = "rate_limited"
    QUOTA_EXCEEDED = "quota_exceeded"
    # the event store
    STORE_UNAVAILABLE = "store_unavailable"
    OUTCOME_UNKNOWN = "outcome_unknown"
    NOT_REPLICATED = "not_replicated"
    NOT_READY = "not_ready"
    ARCHIVE_UNAVAILABLE = "archive_unavailable"
    # the last resort
    INTERNAL_ERROR = "internal_error"


class ServiceError(Exception):
    """A request the service refuses: a stable code, a sentence, and details for the answer
    (e.g. `current_version`, `retry_after`)."""

    def __init__(self, code: Code, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code: str = code
        self.message, self.extra = message, extra


class Refused(ServiceError):
    """A request refused as it stands, with the code of the rule that refuses it: a game's rule
    (the domain's codes are each game's, not `Code`s), or a fork at a version its parent lacks."""

    def __init__(self, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.code, self.message, self.extra = code, message, {}

    @classmethod
    def by_rule(cls, error: DomainError) -> Refused:
        return cls(error.code, error.message)
