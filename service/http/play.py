"""Playing a game: submit commands, read legal options, views and events, follow the event stream."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, JSONBody, QueryParameter
from litestar.response import Stream

from domain import games
from service.store.fanout import Fanout
from service.write import GameService

from .auth import (
    GameIdParam,
    caller_seat,
    decider_of,
    provide_fanout,
    provide_frames,
    provide_metrics,
    provide_quotas,
    provide_service,
    require,
)
from .choices import MAX_TOKEN, TOKEN_PATTERN, choices_at
from .metrics import Metrics
from .models import (
    MAX_VERSION,
    Awaiting,
    Choices,
    CommandAccepted,
    EventOut,
    LegalOptions,
    StreamMessage,
    View,
)
from .openapi import OPTIONAL_TOKEN, SEAT_TOKEN, tagged
from .problems import problems
from .quotas import Quotas
from .sse import Frames, feed, redacted
from .views import AtParam, MinVersionParam, projected

# what Litestar's ServerSentEvent sets: no caching, and no buffering by a proxy (nginx)
SSE_HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}
IdempotencyKey = Annotated[str | None, HeaderParameter(
    name="Idempotency-Key", pattern="^[!-~]{1,128}$",
    description="Resubmitting a key returns the first outcome and appends nothing (1-128 visible ASCII).")]
# Litestar drops a falsy bound (ge=0) from the schema of an optional parameter; say it again.
MIN_0 = {"minimum": 0}
Command = games.default().command_type  # the default game's seat commands (per game: the client-contract issue)
_COMMANDS = ", ".join(f"`{t}`" for t in tagged(Command))


class PlayController(Controller):
    """Commands in; legal options, views and (redacted) events out."""

    path = "/games/{game_id:str}"
    tags = ["play"]
    dependencies = {"service": Provide(provide_service, sync_to_thread=False),
                    "metrics": Provide(provide_metrics, sync_to_thread=False),
                    "quotas": Provide(provide_quotas, sync_to_thread=False),
                    "fanout": Provide(provide_fanout, sync_to_thread=False),
                    "frames": Provide(provide_frames, sync_to_thread=False)}

    @post("/commands", operation_id="submit_command", status_code=201, summary="Submit a command",
          security=SEAT_TOKEN, responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429),
          description=f"One command of the tagged union (`type`: {_COMMANDS}) for the caller's seat. "
                      "`create_game` is refused here (422 `not_a_seat_command`): create games with POST /games.")
    async def submit_command(
        self, game_id: GameIdParam, data: JSONBody[Command], request: Request, service: NamedDependency[GameService],
        metrics: NamedDependency[Metrics], quotas: NamedDependency[Quotas],
        idempotency_key: IdempotencyKey = None,
        expected_version: Annotated[int | None, QueryParameter(ge=0, le=MAX_VERSION, schema_extra=MIN_0, description=(
            "Refuse with 409 `version_conflict` unless the game is at this version."))] = None,
    ) -> CommandAccepted:
        seat = await caller_seat(service, game_id, request, required=True)
        await quotas.hit("commands", f"{game_id}:{seat}")
        require(hasattr(data, "seat"), 422, "not_a_seat_command", "Only a seat's commands go here; create games with POST /games.")
        with metrics.command():
            done = await service.submit(game_id, seat, data, expected_version=expected_version,
                                        idempotency_key=idempotency_key)
        awaiting = msgspec.convert(done.awaiting, Awaiting) if done.awaiting else None
        return CommandAccepted(version=done.version, first=done.first, awaiting=awaiting)

    @get("/options", operation_id="get_options", status_code=200, summary="The caller's choices",
         security=SEAT_TOKEN, responses=problems(400, 401, 403, 404, 409))
    async def get_options(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService],
        after: Annotated[str | None, QueryParameter(max_length=MAX_TOKEN, pattern=TOKEN_PATTERN, description=(
            "A choice's `next` token: the choices that follow it (409 once the game has moved on)."))] = None,
    ) -> Choices:
        """What the caller's seat may do now, as choices: each either a complete command to send as it
        is, or a `next` token for the choices that follow it. Following choices from the root always
        ends in complete commands, and every legal command can be reached."""
        seat = await caller_seat(service, game_id, request, required=True)
        decider = await decider_of(service, game_id)
        version, state = await service.state_at(game_id)
        return choices_at(decider, state, version, seat, after)

    @get("/options/blocks", operation_id="get_option_blocks", status_code=200,
         summary="Legal options of the caller's seat, as building blocks", security=SEAT_TOKEN,
         responses=problems(400, 401, 403, 404))
    async def get_option_blocks(self, game_id: GameIdParam, request: Request,
                                service: NamedDependency[GameService]) -> LegalOptions:
        """What the caller's seat may do now, in the engine's own terms (movement as building blocks:
        where a piece could go next): for clients that build commands themselves."""
        seat = await caller_seat(service, game_id, request, required=True)
        decider = await decider_of(service, game_id)
        version, state = await service.state_at(game_id)
        return LegalOptions(version=version, seat=seat, options=decider.legal_options(state, seat))

    @get("/view", operation_id="get_view", status_code=200, summary="The public view, or the caller's seat view",
         security=OPTIONAL_TOKEN, responses=problems(400, 401, 403, 404))
    async def get_view(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService],
        at: AtParam = None, min_version: MinVersionParam = 0,
    ) -> View:
        """Without a token (or with the admin token), what every spectator sees; with a seat token, that
        seat's view (the public view plus its hand and half-god values). Served from the read model;
        `version` says which version it shows."""
        seat = await caller_seat(service, game_id, request, required=False)
        version, view = await projected(service, game_id, "board", seat, at, min_version)
        return View(version=version, seat=seat, view=view)

    @get("/score", operation_id="get_score", status_code=200, summary="Scores: totals, breakdown by source, timeline",
         security=OPTIONAL_TOKEN, responses=problems(400, 401, 403, 404))
    async def get_score(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService],
        at: AtParam = None, min_version: MinVersionParam = 0,
    ) -> View:
        """Per seat: the total and where it came from (gods by epoch, phase ends, each scoring's half gods,
        columns and Pietalte), and every seat's score after every event that changed one."""
        await caller_seat(service, game_id, request, required=False)
        version, view = await projected(service, game_id, "score", None, at, min_version)
        return View(version=version, seat=None, view=view)

    @get("/events", operation_id="list_events", status_code=200, summary="Events after a version",
         security=OPTIONAL_TOKEN, responses=problems(400, 401, 403, 404))
    async def list_events(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description="Only events with a greater version.")] = 0,
    ) -> list[EventOut]:
        """The events after version `after`, redacted for the caller (no token: a spectator)."""
        viewer = await caller_seat(service, game_id, request, required=False)
        events = redacted(await service.events(game_id, after, viewer), await service.store.revealed(game_id))
        return msgspec.convert(events, list[EventOut])

    @get("/stream", operation_id="stream_events", status_code=200, summary="Server-Sent Events of new events",
         security=OPTIONAL_TOKEN, responses={**problems(400, 401, 403, 404, 429), 200: ResponseSpec(
             data_container=StreamMessage, media_type="text/event-stream", generate_examples=False,
             description="`id:` is the event's version; `data:` an event as in list_events. Ends when the game is finished.")})
    async def stream_events(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas], fanout: NamedDependency[Fanout], frames: NamedDependency[Frames],
        last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", ge=0, le=MAX_VERSION, schema_extra=MIN_0,
                                                        description="Resume after this version.")] = None,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description="Start after this version.")] = 0,
    ) -> Stream:
        """Redacted events as they happen, resumable with `Last-Event-ID` (or `after`)."""
        viewer = await caller_seat(service, game_id, request, required=False)
        start = last_event_id if last_event_id is not None else after
        decider = await decider_of(service, game_id)
        first = await fanout.catch_up(game_id, start)  # before the answer starts: a Redis failure is a 503
        place = await quotas.open_stream(service.store.redis, quotas.client(request))
        return Stream(feed(fanout, frames, decider, game_id, viewer, (start, first), place),
                      media_type="text/event-stream", headers=SSE_HEADERS)
