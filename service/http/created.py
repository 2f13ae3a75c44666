"""`201 Created` answers with a `Location`, and the OpenAPI `links` from a created game to what a
client does next with it (its reads and its commands)."""

from __future__ import annotations

from typing import TypeVar

from litestar import Response
from litestar.openapi.spec import Link, OpenAPI, OpenAPIHeader, OpenAPIResponse, Schema
from litestar.openapi.spec.enums import OpenAPIType

T = TypeVar("T")
# where each creating operation's Location points, and what it says there
LOCATIONS = {
    "create_game": "The new game: `/games/{game}`.",
    "fork_game": "The fork: `/games/{game}` of the new game.",
    "rematch_game": "The rematch: `/games/{game}` of the new game.",
    "claim_seat": "The seat's view, `/games/{game_id}/view`: read it with the token in the answer.",
    "reissue_seat_token": "The seat's claim, `/games/{game_id}/seats/{seat}/claim`: claim it with the invite code.",
}
# the operations a created game's id leads to (its path parameter `game_id`)
NEXT = ("get_game", "get_view", "get_options", "list_events", "submit_command")


def created(body: T, location: str) -> Response[T]:
    """A 201 answer with `body` and its `Location`."""
    return Response(body, status_code=201, headers={"Location": location})


def document(openapi: OpenAPI) -> OpenAPI:
    """Say where `Location` points in each 201, and link a created game to its reads and commands."""
    for item in (openapi.paths or {}).values():
        operation = item.post
        if operation is None or operation.operation_id not in LOCATIONS:
            continue
        answer = (operation.responses or {}).get("201")
        if not isinstance(answer, OpenAPIResponse):
            continue
        answer.headers = {
            **(answer.headers or {}),
            "Location": OpenAPIHeader(
                schema=Schema(type=OpenAPIType.STRING), required=True, description=LOCATIONS[operation.operation_id]
            ),
        }
        if operation.operation_id in ("create_game", "fork_game"):
            answer.links = {
                name: Link(
                    operation_id=name,
                    parameters={"game_id": "$response.body#/game"},
                    description=f"`{name}` of the game just made.",
                )
                for name in NEXT
            }
    return openapi
