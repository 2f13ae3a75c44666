"""Playing a game: submit commands, read legal options, views and events, follow the event stream."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter, JSONBody, QueryParameter
from litestar.response import Stream

from service.store.fanout import Fanout
from service.write import GameService

from .auth import (
    KEY_RECORDED,
    GameIdParam,
    caller_seat,
    decider_of,
    provide_fanout,
    provide_frames,
    provide_metrics,
    provide_quotas,
    provide_service,
)
from .choices import MAX_TOKEN, TOKEN_PATTERN, choices_at
from .metrics import Metrics
from .models import (
    CONTRACTS,
    MAX_VERSION,
    AnyCommand,
    Awaiting,
    Choices,
    CommandAccepted,
    Events,
    OptionBlocks,
    ScoreAnswer,
    ViewAnswer,
    of_kind,
)
from .openapi import OPTIONAL_TOKEN, SEAT_TOKEN, tagged
from .problems import problems
from .quotas import Quotas
from .sse import Frames, feed, redacted
from .views import AtParam, MinVersionParam, projected

# what Litestar's ServerSentEvent sets: no caching, and no buffering by a proxy (nginx)
SSE_HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        pattern="^[!-~]{1,128}$",
        description="Resubmitting a key returns the first outcome and appends nothing (1-128 visible ASCII).",
    ),
]
# Litestar drops a falsy bound (ge=0) from the schema of an optional parameter; say it again.
MIN_0 = {"minimum": 0}
# The commands a client sends, over every hosted game; each game's are decoded by its kind.
_COMMANDS = ", ".join(f"`{t}`" for t in tagged(AnyCommand.__metadata__[0].union))
MAX_EVENTS = 5000  # events one answer holds at most (a finished game has about 1,000)


class PlayController(Controller):
    """Commands in; legal options, views and (redacted) events out."""

    path = "/games/{game_id:str}"
    tags = ["play"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "metrics": Provide(provide_metrics, sync_to_thread=False),
        "quotas": Provide(provide_quotas, sync_to_thread=False),
        "fanout": Provide(provide_fanout, sync_to_thread=False),
        "frames": Provide(provide_frames, sync_to_thread=False),
    }

    @post(
        "/commands",
        operation_id="submit_command",
        status_code=201,
        summary="Submit a command",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429),
        opt={"rate": "commands"},  # counted before the body is read (strict)
        description=f"One command of the game's kind, from the tagged union (`type`: {_COMMANDS}), for the "
        "caller's seat, which the token says: a body with `seat` is refused (400 `seat_in_command`), "
        "another game's command too (422 `wrong_kind`). A choice's `command` (GET "
        "/games/{id}/options) is such a body as it is.",
    )
    async def submit_command(
        self,
        game_id: GameIdParam,
        data: JSONBody[AnyCommand],
        request: Request,
        service: NamedDependency[GameService],
        idempotency_key: IdempotencyKey = None,
        expected_version: Annotated[
            int | None,
            QueryParameter(
                ge=0,
                le=MAX_VERSION,
                schema_extra=MIN_0,
                description=("Refuse with 409 `version_conflict` unless the game is at this version."),
            ),
        ] = None,
    ) -> CommandAccepted:
        seat = await caller_seat(service, game_id, request, required=True)
        # `data` is the game's wire command, decoded once from the body (bodies.read: 422 `wrong_kind`
        # for another game's command, 400 for no command at all)
        command = CONTRACTS[await service.kind(game_id)].to_domain(data, seat)
        # not a dependency: two make Litestar start a task group per request
        metrics: Metrics = request.app.state.metrics
        with metrics.command():
            done = await service.submit(
                game_id,
                seat,
                command,
                expected_version=expected_version,
                idempotency_key=idempotency_key,
                key_recorded=request.state.get(KEY_RECORDED),  # the guard looked (strict._check_command_caller)
            )
        awaiting = msgspec.convert(done.awaiting, Awaiting) if done.awaiting else None
        return CommandAccepted(version=done.version, first=done.first, awaiting=awaiting)

    @get(
        "/options",
        operation_id="get_options",
        status_code=200,
        summary="The caller's choices",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404, 409),
    )
    async def get_options(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        after: Annotated[
            str | None,
            QueryParameter(
                max_length=MAX_TOKEN,
                pattern=TOKEN_PATTERN,
                description=("A choice's `next` token: the choices that follow it (409 once the game has moved on)."),
            ),
        ] = None,
    ) -> Choices:
        """What the caller's seat may do now, as choices: each either a complete command to send as it
        is, or a `next` token for the choices that follow it. Following choices from the root always
        ends in complete commands, and every legal command can be reached."""
        seat = await caller_seat(service, game_id, request, required=True)
        decider = await decider_of(service, game_id)
        version, state = await service.state_at(game_id)
        return choices_at(decider, state, version, seat, after)

    @get(
        "/options/blocks",
        operation_id="get_option_blocks",
        status_code=200,
        summary="Legal options of the caller's seat, as building blocks",
        security=SEAT_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def get_option_blocks(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService]
    ) -> OptionBlocks:
        """What the caller's seat may do now, in the engine's own terms (movement as building blocks:
        where a piece could go next): for clients that build commands themselves."""
        seat = await caller_seat(service, game_id, request, required=True)
        decider = await decider_of(service, game_id)
        version, state = await service.state_at(game_id)
        return of_kind("OptionBlocks", decider.kind)(  # the blocks as the game builds them (described by the type)
            version=version, seat=seat, options=decider.legal_options(state, seat)
        )

    @get(
        "/view",
        operation_id="get_view",
        status_code=200,
        summary="The public view, or the caller's seat view",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def get_view(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        at: AtParam = None,
        min_version: MinVersionParam = 0,
    ) -> ViewAnswer:
        """Without a token (or with the admin token), what every spectator sees; with a seat token, that
        seat's view (the public view plus its hand and half-god values). Served from the read model;
        `version` says which version it shows."""
        seat = await caller_seat(service, game_id, request, required=False)
        version, view = await projected(service, game_id, "board", seat, at, min_version)
        return of_kind("ViewAnswer", await service.kind(game_id))(version=version, seat=seat, view=view)

    @get(
        "/score",
        operation_id="get_score",
        status_code=200,
        summary="Scores: totals, breakdown by source, timeline",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def get_score(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        at: AtParam = None,
        min_version: MinVersionParam = 0,
    ) -> ScoreAnswer:
        """Per seat: the total and where it came from (gods by epoch, phase ends, each scoring's half gods,
        columns and Pietalte), and every seat's score after every event that changed one. Where a
        game keeps scores secret until the end (Pergamon's `vp_visibility: secret`), a seat token
        also shows that seat's own score and its changes; everyone else's stay hidden."""
        seat = await caller_seat(service, game_id, request, required=False)
        version, view = await projected(service, game_id, "score", seat, at, min_version, or_public=True)
        return of_kind("ScoreAnswer", await service.kind(game_id))(version=version, view=view)

    @get(
        "/events",
        operation_id="list_events",
        status_code=200,
        summary="Events after a version",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def list_events(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="Only events with a greater version.")
        ] = 0,
        limit: Annotated[
            int, QueryParameter(ge=1, le=MAX_EVENTS, description="At most this many events.")
        ] = MAX_EVENTS,
    ) -> Events:
        """The events after version `after`, oldest first, redacted for the caller (no token: a spectator);
        `next` is the `after` of the following page (null when there are no more events now)."""
        viewer = await caller_seat(service, game_id, request, required=False)
        kind = await service.kind(game_id)
        events = await service.events(game_id, after, viewer, limit + 1)
        more = len(events) > limit
        events = redacted(events[:limit], await service.store.records.revealed(game_id))
        return of_kind("Events", kind)(events=events, next=events[-1]["version"] if more else None)

    @get(
        "/stream",
        operation_id="stream_events",
        status_code=200,
        summary="Server-Sent Events of new events",
        security=OPTIONAL_TOKEN,
        responses={
            **problems(400, 401, 403, 404, 429),
            200: ResponseSpec(
                data_container=str,
                media_type="text/event-stream",
                generate_examples=False,
                description="Server-Sent Events, not one JSON document: read them with an SSE client. Each event "
                "has `id:` (its version, to resume with Last-Event-ID) and `data:` (one JSON object: an "
                "item of list_events' `events`, the EventOut of the game's kind); lines starting with "
                "`:` keep the connection alive; the `StreamMessage` schema describes one event. Ends when the game is finished. "
                "A stream that sent events a failover then lost (never acknowledged; their versions may hold "
                'other events now) ends with `event: reset`, `id: N` and `data: {"version": N}`: what was '
                "sent after version N no longer holds; read the game again and resume after N (an SSE client "
                "does, by Last-Event-ID). A stream resumed after a version the game does not have gets the "
                "same with N = 0.",
            ),
        },
    )
    async def stream_events(
        self,
        game_id: GameIdParam,
        request: Request,
        service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas],
        fanout: NamedDependency[Fanout],
        frames: NamedDependency[Frames],
        last_event_id: Annotated[
            int | None,
            HeaderParameter(
                name="Last-Event-ID", ge=0, le=MAX_VERSION, schema_extra=MIN_0, description="Resume after this version."
            ),
        ] = None,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION, description="Start after this version.")] = 0,
    ) -> Stream:
        """Redacted events as they happen, resumable with `Last-Event-ID` (or `after`)."""
        viewer = await caller_seat(service, game_id, request, required=False)
        start = last_event_id if last_event_id is not None else after
        decider = await decider_of(service, game_id)
        first = await fanout.catch_up(game_id, start)  # before the answer starts: a Redis failure is a 503
        place = await quotas.open_stream(service.store.quotas, quotas.client(request))
        return Stream(
            feed(fanout, frames, decider, game_id, viewer, (start, first), place),
            media_type="text/event-stream",
            headers=SSE_HEADERS,
        )
