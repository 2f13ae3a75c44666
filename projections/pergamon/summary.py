"""How Pergamon's events change the lobby summary: the round as a detail, the awaited seat and
decision, VP (only once the game ends when they are secret), and the winners."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.pergamon import events as ev
from domain.pergamon.fork import PergamonForked
from domain.pergamon.vocabulary import TOMB_RAIDER

from ..summary import SummaryModel, SummaryRules


def _details() -> dict[str, Any]:
    return {"round": 0, "placement_order": []}


def _await(m: SummaryModel, seat: int | None, decision: str = "") -> None:
    m.awaiting = None if seat is None else {"seat": seat, "decision": decision}
    if seat is not None and m.status == "setup":
        m.status = "playing"


def _created(m: SummaryModel, e: ev.PergamonGameCreated) -> None:
    m.options = msgspec.to_builtins(e.options)
    m.scores = [0] * e.options.players


def _secret(m: SummaryModel) -> bool:
    return m.options.get("vp_visibility") == "secret"


def _round(m: SummaryModel, e: ev.RoundStarted) -> None:
    m.details["round"], m.details["placement_order"] = e.round, list(e.placement_order)


def _drawn(m: SummaryModel, e: ev.FindsDrawn) -> None:
    if e.arranger is not None:
        _await(m, e.arranger, "arrange_finds")


def _arranged(m: SummaryModel, e: ev.FindsArranged) -> None:
    _await(m, None)


def _backs(m: SummaryModel, e: ev.FundingBacksDrawn) -> None:
    _await(m, m.details["placement_order"][0], "choose_funding_space")


def _placed(m: SummaryModel, e: ev.FundingSpaceChosen) -> None:
    order = m.details["placement_order"]
    later = order[order.index(e.seat) + 1 :]
    _await(m, later[0] if later else None, "choose_funding_space")


def _turn(m: SummaryModel, e: ev.TurnStarted) -> None:
    _await(m, None if e.figure == TOMB_RAIDER else e.figure, "excavate")


def _exhibit_step(m: SummaryModel, e: ev.Excavated | ev.ExcavationSkipped) -> None:
    _await(m, e.seat, "exhibit")


def _exhibited(m: SummaryModel, e: ev.Exhibited) -> None:
    if not _secret(m):
        m.scores[e.seat] += e.vp or 0


def _store_step(m: SummaryModel, e: ev.ExhibitingFinished) -> None:
    _await(m, e.seat, "store")


def _stored(m: SummaryModel, e: ev.Stored) -> None:
    _await(m, None)


def _points(m: SummaryModel, e: ev.MarkersScored) -> None:
    if not _secret(m):
        m.scores = [s + (p or 0) for s, p in zip(m.scores, e.points)]


def _award(m: SummaryModel, e: ev.AwardGiven) -> None:
    if not _secret(m):
        for seat in e.winners:
            m.scores[seat] += e.vp or 0


def _bonus(m: SummaryModel, e: ev.FinalBonusGiven) -> None:
    if not _secret(m):
        for b in e.bonuses:
            m.scores[b.seat] += b.vp or 0


def _ended(m: SummaryModel, e: ev.PergamonGameEnded) -> None:
    m.status, m.winners, m.awaiting, m.scores = "finished", list(e.winners), None, list(e.scores)


def _forked(m: SummaryModel, e: PergamonForked) -> None:
    s = e.state
    m.options = msgspec.to_builtins(s.options)
    m.scores = [0 if _secret(m) else seat.vp for seat in s.seats]
    m.details["round"], m.details["placement_order"] = s.round, list(s.placement_order)
    m.status = "playing"
    _await(m, s.awaiting if s.decision else None, s.decision or "")


SUMMARY_RULES = SummaryRules(
    details=_details,
    handlers={
        ev.PergamonGameCreated: _created,
        ev.RoundStarted: _round,
        ev.FindsDrawn: _drawn,
        ev.FindsArranged: _arranged,
        ev.FundingBacksDrawn: _backs,
        ev.FundingSpaceChosen: _placed,
        ev.TurnStarted: _turn,
        ev.Excavated: _exhibit_step,
        ev.ExcavationSkipped: _exhibit_step,
        ev.Exhibited: _exhibited,
        ev.ExhibitingFinished: _store_step,
        ev.Stored: _stored,
        ev.MarkersScored: _points,
        ev.AwardGiven: _award,
        ev.FinalBonusGiven: _bonus,
        ev.PergamonGameEnded: _ended,
        PergamonForked: _forked,
    },
)
