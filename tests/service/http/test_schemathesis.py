"""Schemathesis against the app, in process and as a real `pantheon api` process over HTTP: generated
requests for every operation of the served document, all checks."""

# The checks: no server errors, documented statuses, content types and schemas, invalid data
# rejected, valid data accepted, auth enforced, Allow headers, unsupported methods answered 405.

from __future__ import annotations

import copy
import uuid

import httpx
import hypothesis
import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig
from schemathesis.python import asgi

from service.http.app import create_app
from service.store.connection import connect_sync

from ..api_helpers import RELAXED, app_settings
from ..live import live_api

STREAM_TIMEOUT = (
    1.0  # seconds: an open game's event stream never ends by itself (a refusal comes at once; 1 s for a loaded machine)
)
# 30 examples per operation and phase: well over a thousand requests in all. Every check is on;
# a schema-valid command may still break the rules, so submit_command may also answer 422 (and a
# fork inside a command's events or of a running game without its token, or an export of a
# running game, are refused with their documented statuses; so is an Idempotency-Key generated
# twice for two different games or claims: 422 `idempotency_key_reused`; a choice token is opaque:
# one the server did not make is 400, one made at another version 409; so is a lobby cursor: 400;
# a schema-valid name may still be one the game refuses, 422: a control character, a page's label,
# another seat's name).
CONFIG = SchemathesisConfig.from_str("""
[generation]
max-examples = 30
database = "none"

[[operations]]
include-operation-id = "submit_command"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

[[operations]]
include-operation-id = "create_game"
checks.positive_data_acceptance.expected-statuses = ["2xx", "422", "429"]

[[operations]]
include-operation-id = "claim_seat"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

[[operations]]
include-operation-id = "name_seat"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

[[operations]]
include-operation-id = "fork_game"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]

[[operations]]
include-operation-id = "get_options"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409"]

[[operations]]
include-operation-id = "list_games"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400"]

[[operations]]
include-operation-id = "export_game"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "409"]
""")

# The schema as an app serves it (building the document needs no Redis); the requests go to an
# app on the test's Redis, passed to each call. (schemathesis' lazy `from_fixture` loader does not
# work with pytest 9.2: it sets `request.node._nodeid`, which pytest no longer has.)
schema = schemathesis.openapi.from_asgi(
    "/schema/openapi.json", create_app(app_settings("redis://127.0.0.1:1/0", "unused")), config=CONFIG
)
# The same document, for requests to a real API process over HTTP (its address is known only once
# the `live` fixture has started it).
live_schema = schemathesis.openapi.from_dict(copy.deepcopy(schema.raw_schema), config=CONFIG)
REAL: dict = {}  # the real game's id and its seat tokens, while the app fixture lives
LIVE_REAL: dict = {}  # the same for the live process


def _half(value: object) -> bool:
    """A fixed half of the generated values (hashing would differ between runs)."""
    return str(value)[-1:] in "02468aceAC"


def _aim_at(real: dict):
    def map_case(context, case):
        """Schemathesis cannot guess ids or tokens: half the valid requests aim at the real game, and
        most of those act as one of its seats, so that commands reach the rules with whatever they carry."""
        generated = (case.path_parameters or {}).get("game_id")
        positive = case.meta is not None and case.meta.generation.mode.is_positive
        if not (positive and real and isinstance(generated, str) and _half(generated)):
            return case
        case.path_parameters = {**case.path_parameters, "game_id": real["game"]}
        if generated[0] != "0":
            seat = int(_half(generated[:-1]))
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {real['tokens'][seat]}"}
        return case

    return map_case


schema.hook(_aim_at(REAL))
live_schema.hook(_aim_at(LIVE_REAL))


def _remove_keys(redis_url: str, prefix: str) -> None:
    client = connect_sync(redis_url)
    keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    for queue in client.smembers("rq:queues"):
        if prefix.encode() in queue:
            client.srem("rq:queues", queue)
    client.close()


@pytest.fixture(scope="module")
def app(redis_url):
    """The app under test on the test Redis, with one real game; its keys are removed afterwards."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    app = create_app(app_settings(redis_url, prefix, quotas=RELAXED))  # generated requests come fast, from one address
    with asgi.get_client(app) as client:
        game = client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]}).json()["game"]
        REAL.update(game=game, tokens=[client.post(f"/games/{game}/seats/{s}/claim").json()["token"] for s in (0, 1)])
    yield app
    REAL.clear()
    asgi.shutdown_lifespans()
    _remove_keys(redis_url, prefix)


@pytest.fixture(scope="module")
def live(redis_url):
    """A real `pantheon api` process on the test Redis, with one real game; its keys are removed afterwards."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    try:
        with live_api(redis_url, prefix) as base, httpx.Client(base_url=base, timeout=10) as client:
            game = client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]}).json()["game"]
            LIVE_REAL.update(
                game=game, tokens=[client.post(f"/games/{game}/seats/{s}/claim").json()["token"] for s in (0, 1)]
            )
            yield base
    finally:
        LIVE_REAL.clear()
        _remove_keys(redis_url, prefix)


@schema.parametrize()
def test_the_api_conforms_to_its_openapi_document(case, app):
    timeout = STREAM_TIMEOUT if case.path.endswith("/stream") else 10
    case.call_and_validate(app=app, timeout=timeout)


@live_schema.parametrize()
def test_the_live_api_process_conforms_to_its_openapi_document(case, live):
    timeout = STREAM_TIMEOUT if case.path.endswith("/stream") else 10
    case.call_and_validate(base_url=live, timeout=timeout)


def test_sequences_that_follow_the_documents_links_conform_too(app):
    """The stateful phase: a created game's id leads, by the links of create_game's and fork_game's
    201, to its reads and commands; every step is checked like the single requests above."""
    assert schema.statistic.transitions.total >= 10  # create_game's and fork_game's links (5 each)

    class Workflow(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"app": app, "timeout": STREAM_TIMEOUT if case.path.endswith("/stream") else 10}

    Workflow.run(
        settings=hypothesis.settings(
            max_examples=25, stateful_step_count=5, deadline=None, suppress_health_check=list(hypothesis.HealthCheck)
        )
    )
