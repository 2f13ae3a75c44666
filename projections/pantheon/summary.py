"""How Pantheon's events change the lobby summary: scores from gods, phase ends and scorings; the
epoch and nation as details; playing once the first action is awaited."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.pantheon import events as ev
from domain.pantheon.redeal import Redealt

from ..summary import SummaryModel, SummaryRules


def _details() -> dict[str, Any]:
    return {"epoch": 0, "nation": None}


def _created(m: SummaryModel, e: ev.GameCreated) -> None:
    m.options = msgspec.to_builtins(e.options)
    m.scores = [0] * e.options.players


def _nation(m: SummaryModel, e: ev.NationRevealed) -> None:
    m.details["epoch"], m.details["nation"] = e.epoch, e.nation or None


def _points(m: SummaryModel, e: ev.GodGained | ev.TurnPhaseEnded) -> None:
    m.scores[e.seat] += e.points


def _scored(m: SummaryModel, e: ev.Scored) -> None:
    m.scores = [score + row.total for score, row in zip(m.scores, e.rows)]


def _agenda(m: SummaryModel, e: ev.AgendaSet) -> None:
    first = e.tasks[0] if e.tasks and m.status != "finished" else None
    m.awaiting = None if first is None else {"seat": first.seat, "decision": first.kind}
    if m.status == "setup" and first is not None and first.kind == "action":
        m.status = "playing"


def _ended(m: SummaryModel, e: ev.GameEnded) -> None:
    m.status, m.winners, m.awaiting = "finished", list(e.winners), None


def _redealt(m: SummaryModel, e: Redealt) -> None:
    state = e.state
    m.options = msgspec.to_builtins(state.options)
    m.scores = [seat.score for seat in state.seats]
    m.details["epoch"], m.details["nation"] = state.epoch, state.nation or None
    first = state.agenda[0] if state.agenda and not state.finished else None
    m.awaiting = None if first is None else {"seat": first.seat, "decision": first.kind}
    # in setup while the bonus tiles are drafted (a fork cannot tell the rest of setup from play)
    m.status = "finished" if state.finished else "setup" if first and first.kind == "choose_bonus" else "playing"


SUMMARY_RULES = SummaryRules(
    details=_details,
    handlers={
        ev.GameCreated: _created,
        ev.NationRevealed: _nation,
        ev.GodGained: _points,
        ev.TurnPhaseEnded: _points,
        ev.Scored: _scored,
        ev.AgendaSet: _agenda,
        ev.GameEnded: _ended,
        Redealt: _redealt,
    },
)
