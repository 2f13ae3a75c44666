"""Errors by code: every code the service raises has its HTTP status in one table
(`service/http/problems.py`), the documented problem responses agree with that table, and no
module below `service/http` names an HTTP status for an error."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from litestar import get
from litestar.testing import create_test_client

from domain.kernel import DomainError
from service.ai.worker import BOT_REFUSALS
from service.errors import Code, Refused, ServiceError
from service.http import problems
from service.http.problems import _DESCRIPTIONS, _HTTP_CODES, EXCEPTION_HANDLERS, REFUSED, STATUS, status_of

SERVICE = pathlib.Path(__file__).resolve().parents[3] / "service"
ABOVE_ERRORS = {"http", "cli"}  # the HTTP layer (which owns the table) and the CLI over it


def test_every_code_has_one_status_in_the_table():
    assert set(STATUS) == set(Code)
    assert all(400 <= status <= 599 for status in STATUS.values())


def test_a_rules_refusal_keeps_its_own_code_and_is_unprocessable():
    refused = Refused.by_rule(DomainError("not_your_turn", "It is seat 1's turn."))
    assert (status_of(refused), refused.code, refused.message) == (REFUSED, "not_your_turn", "It is seat 1's turn.")
    assert status_of(ServiceError(Code.SEAT_TAKEN, "Seat 0 has already been claimed.")) == 409


def test_what_lets_the_next_bot_try_is_what_the_rules_refusals_answer():
    # before errors had codes the AI worker tried the next bot on a 422: each code it names now is one
    assert {status_of(ServiceError(code, "")) for code in BOT_REFUSALS} == {REFUSED}


FRAMEWORK = {code: status for status, (code, _) in _HTTP_CODES.items()}  # errors Litestar raises, by status


@pytest.mark.parametrize("status", sorted(_DESCRIPTIONS))
def test_the_documented_problem_responses_name_each_code_at_its_status(status):
    """The OpenAPI document's problem responses (`problems()`) name codes: each at its table's status."""
    named = {c for c in re.findall(r"`([a-z_]+)`", _DESCRIPTIONS[status]) if c in set(Code) or c in FRAMEWORK}
    assert named, f"the {status} description names no code"
    assert {code: STATUS[Code(code)] if code in set(Code) else FRAMEWORK[code] for code in named} == dict.fromkeys(
        named, status
    )


def _modules_below_http():
    for path in sorted(SERVICE.rglob("*.py")):
        if path.relative_to(SERVICE).parts[0] not in ABOVE_ERRORS:
            yield path


def _status_literals(tree: ast.AST):
    """HTTP statuses written where an error is made or read: a number from 100 to 599 given to an
    exception (a callee whose name ends in Error, or Refused), or an error's `status` read."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if callee.endswith("Error") or callee == "Refused":
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, int) and 100 <= arg.value <= 599:
                        yield node.lineno, ast.unparse(node)[:80]
        if isinstance(node, ast.Attribute) and node.attr in ("status", "status_code"):
            yield node.lineno, ast.unparse(node)


def test_no_module_below_http_names_an_http_status():
    found = [
        f"{path.relative_to(SERVICE.parent)}:{line}: {text}"
        for path in _modules_below_http()
        for line, text in _status_literals(ast.parse(path.read_text()))
    ]
    assert found == []


def test_the_scan_would_catch_a_status():
    caught = ast.parse('raise ServiceError(404, "unknown_game", "No game.")\nif error.status == 422: pass')
    assert [line for line, _ in _status_literals(caught)] == [1, 2]
    assert list(_modules_below_http())  # it does look at modules


def test_a_service_error_answers_with_its_tables_status():
    @get("/seat")
    async def seat() -> None:
        raise ServiceError(Code.SEAT_TAKEN, "Seat 0 has already been claimed.")

    @get("/rule")
    async def rule() -> None:
        raise Refused.by_rule(DomainError("not_your_turn", "It is seat 1's turn."))

    with create_test_client([seat, rule], exception_handlers=EXCEPTION_HANDLERS) as client:
        taken, refused = client.get("/seat"), client.get("/rule")
    assert (taken.status_code, taken.json()["code"], taken.json()["status"]) == (409, "seat_taken", 409)
    assert (refused.status_code, refused.json()["code"]) == (422, "not_your_turn")
    assert taken.headers["content-type"] == problems.PROBLEM_MEDIA_TYPE
