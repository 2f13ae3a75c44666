"""Forks, audits, refused commands and exports of a game."""

from __future__ import annotations

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody
from litestar.response import Response
from msgspec import Struct

from service.audit.archive import load_export
from service.audit.checks import audit
from service.audit.export import decider_for, export_lines
from service.audit.lineage import fork
from service.errors import Code
from service.write import GameService

from .auth import (
    GameIdParam,
    bearer,
    caller_seat,
    provide_quotas,
    provide_service,
    require,
)
from .created import created
from .games import Admission, SecretIdempotencyKey, _seat_spec, seat_choices
from .models import (
    ForkRequest,
    GameCreatedResponse,
    GameKind,
    Rejected,
)
from .openapi import OPTIONAL_TOKEN
from .problems import problems
from .quotas import Quotas


# the audit's wire types (documented in the OpenAPI schema)
class AuditCheck(Struct, frozen=True, kw_only=True):
    name: str
    ok: bool | None  # null: could not be run yet (e.g. the seed is secret until the game ends)
    detail: str
    first_failure: int | None


class AuditStoryLine(Struct, frozen=True, kw_only=True):
    """One event of the audit's story: in words (its `text`, as `/events` gives it to a spectator
    while the game runs; the whole event once it has ended), who caused it, the scores after it."""

    version: int
    seat: int | None  # the seat whose command caused it (null: the game itself, or the platform)
    command: str | None  # the type of the command that caused it, on the first event of its events
    text: str
    scores: list[int | None]  # per seat after the event (null: a score a spectator may not know yet)


class AuditReport(Struct, frozen=True, kw_only=True):
    """The audit of a game: every check (`ok` null: it needs the end of the game, or could not
    run), and the story of every event in words (as a spectator sees it while the game is running):
    as lines (`story`) and as fields (`story_events`)."""

    game: str
    kind: GameKind  # type: ignore[valid-type]
    ok: bool
    events: int
    first_failure: int | None
    checks: list[AuditCheck]
    # every event as one line of words ("v12    Player A place: Player A placed ...  scores A 3, B 5"),
    # as `pantheon audit` prints it; `story_events` gives the same as fields
    story: list[str]
    story_events: list[AuditStoryLine] = []


class AuditController(Controller):
    """Replay's companions: fork a game at a version, audit it, list what was refused, export it."""

    path = "/games/{game_id:str}"
    tags = ["audit"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "quotas": Provide(provide_quotas, sync_to_thread=False),
    }

    @post(
        "/fork",
        operation_id="fork_game",
        status_code=201,
        summary="Fork a game at a version",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404, 413, 415, 422, 429),
        opt={"rate": "create"},
    )
    async def fork_game(
        self,
        game_id: GameIdParam,
        data: JSONBody[ForkRequest],
        request: Request,
        service: NamedDependency[GameService],
        quotas: NamedDependency[Quotas],
        idempotency_key: SecretIdempotencyKey = None,
    ) -> Response[GameCreatedResponse]:
        """A new game from this game at version `at`, with a new secret seed and its own seats. An
        ended game is copied exactly, for anyone. A running game may be forked only with one of its
        seat tokens or its admin token: the fork is dealt afresh from what that caller has seen (their
        own cards as they are, everything else re-dealt), is not listed in the lobby, gives the caller
        every seat's token (`seats`), and keeps its seed and export sealed until this game has ended.
        With an `Idempotency-Key`, a retry by the same caller gets the same fork and forks nothing new."""
        token = bearer(request)
        seat = await service.seat_of(game_id, token) if token else None
        admin = token is not None and await service.is_admin(game_id, token)
        admission, (claim, invite) = Admission(service, quotas, request, data.seats), seat_choices(data.seats)
        made = await fork(
            service,
            game_id,
            data.at,
            [_seat_spec(s) for s in data.seats],
            seat=seat,
            admin=admin,
            claim=claim,
            invite=invite,
            idempotency_key=idempotency_key,
            admit=admission,
        )
        await admission.made(made.game)
        return created(GameCreatedResponse.of(made, await service.kind(made.game)), f"/games/{made.game}")

    @get(
        "/audit",
        operation_id="audit_game",
        status_code=200,
        summary="Audit a game",
        responses=problems(400, 401, 403, 404),
    )
    async def audit_game(self, game_id: GameIdParam, service: NamedDependency[GameService]) -> AuditReport:
        """Seed against commitment (once revealed), hash chain, every command decided again, every AI
        command's view hash against its seat's knowledge, final scores."""
        kind = await service.kind(game_id)
        header, envelopes = await load_export(service.store, game_id)
        report = audit(header, envelopes, decider_for(header.kind))
        return AuditReport(
            game=game_id,
            kind=kind,
            ok=report.ok,
            events=report.events,
            first_failure=report.first_failure,
            checks=[msgspec.convert(c.__dict__, AuditCheck) for c in report.checks],
            story=[str(line) for line in report.story],
            story_events=[msgspec.convert(line.__dict__, AuditStoryLine) for line in report.story],
        )

    @get(
        "/rejected",
        operation_id="list_rejected",
        status_code=200,
        summary="Refused commands",
        security=OPTIONAL_TOKEN,
        responses=problems(400, 401, 403, 404),
    )
    async def list_rejected(
        self, game_id: GameIdParam, request: Request, service: NamedDependency[GameService]
    ) -> list[Rejected]:
        """Who tried what, when, and why it was refused. A refused command and its sentence may tell
        what a hand holds, so until the game ends a seat sees its own in full and everyone else's
        (as does the admin, and a spectator) only as seat, time and code."""
        viewer = await caller_seat(service, game_id, request, required=False)
        revealed = await service.store.records.revealed(game_id)
        return [
            Rejected(**entry)
            if revealed or (viewer is not None and entry["seat"] == viewer)
            else Rejected(at=entry["at"], seat=entry["seat"], code=entry["code"])
            for entry in await service.rejected(game_id)
        ]

    @get(
        "/export",
        operation_id="export_game",
        status_code=200,
        summary="Export a finished game",
        media_type="application/octet-stream",
        responses={
            **problems(400, 401, 403, 404, 409),
            200: ResponseSpec(
                data_container=bytes,
                media_type="application/octet-stream",
                generate_examples=False,
                description="A download (`Content-Disposition: attachment`): JSON Lines, one JSON document a line.",
            ),
        },
    )
    async def export_game(self, game_id: GameIdParam, service: NamedDependency[GameService]) -> Response[bytes]:
        """The game as JSON Lines (a header with the revealed seed, then every event with its command), for
        `pantheon audit FILE` and `pantheon import FILE`. Only once the game has ended."""
        await service.kind(game_id)  # 404 for an unknown game
        header, envelopes = await load_export(service.store, game_id)
        require(
            header.seed is not None,
            Code.GAME_IN_PROGRESS,
            "A game can be exported once it has ended (a fork of a running game: once that game has ended too).",
        )
        body = b"".join(line + b"\n" for line in export_lines(header, envelopes, decider_for(header.kind)))
        return Response(
            body,
            media_type="application/octet-stream",
            headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'},
        )
