"""Audit: check a game's log as a whole — the seed against its commitment, the hash chain, every
event re-derived by deciding the recorded commands again with the seed, every AI command's view
(and, when asked, its decision), every platform event (a seat re-issued or named, which no
command decides), and the final scores — and tell a person what happened, with the score after every event."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain import games
from domain.kernel import (
    PLATFORM_TYPES,
    Bots,
    Decider,
    evolve,
    logged_event_type,
)
from domain.names import named
from domain.rng import game_rng
from domain.words import and_list, player_name
from service.store.codec import GENESIS_HASH, Envelope, chain_hash

from .clocks import check_clocks, forfeit_scores
from .export import Header
from .platform import PlatformCheck
from .story import StoryLine, score_words, story_line, words


@dataclass
class Check:
    name: str
    ok: bool | None  # None: could not be run (says why)
    detail: str
    first_failure: int | None = None


@dataclass
class Report:
    game: str
    events: int
    checks: list[Check] = field(default_factory=list)
    story: list[StoryLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok is True for c in self.checks)

    @property
    def first_failure(self) -> int | None:
        failures = [c.first_failure for c in self.checks if c.ok is False and c.first_failure is not None]
        return min(failures) if failures else None

    def summary(self) -> dict:
        return {
            "ok": self.ok,
            "game": self.game,
            "events": self.events,
            "first_failure": self.first_failure,
            "checks": {c.name: c.ok for c in self.checks},
        }


def audit(header: Header, envelopes: list[Envelope], decider: Decider, *, rerun_bots: bool = False) -> Report:
    """Every check on one game's log; never raises on a bad log, it reports it. Every AI command's
    recorded view hash is compared with its seat's knowledge rebuilt there (the decider's `bots`);
    with `rerun_bots`, the recorded bot is run again on it and must choose the same command."""
    report = Report(game=header.game, events=len(envelopes))
    seed = _check_seed(header, envelopes, report)
    _check_chain(header, envelopes, report)
    # a game recorded by another engine version of its kind: its AI's views were of that engine's knowledge
    hosted = games.GAMES.get(decider.kind)
    running = hosted.engine if hosted else header.engine
    older = header.engine if header.engine and header.engine != running else None
    _replay_and_redecide(header, envelopes, decider, seed, report, _AiCheck(decider.bots, rerun_bots, older, running))
    ok, detail, failure = check_clocks(envelopes, decider)
    report.checks.append(Check("clocks", ok, detail, failure))
    if (ended := forfeit_scores(envelopes, decider)) is not None:  # no game event announced its scores
        report.checks = [Check("final_scores", True, ended) if c.name == "final_scores" else c for c in report.checks]
    return report


def _check_seed(header: Header, envelopes: list[Envelope], report: Report) -> bytes | None:
    published = (envelopes[0].facts or {}).get("commitment") if envelopes else None
    if published != header.commitment:
        report.checks.append(
            Check("commitment", False, "the commitment in the log's first event differs from the header's", 1)
        )
        return None
    if not header.seed:
        report.checks.append(Check("commitment", None, "the seed is not revealed yet (the game has not ended)"))
        return None
    seed = bytes.fromhex(header.seed)
    ok = hashlib.sha256(seed).hexdigest() == header.commitment
    report.checks.append(
        Check(
            "commitment",
            ok,
            "sha256(seed) equals the published commitment"
            if ok
            else "sha256(seed) does not equal the published commitment",
            None if ok else 1,
        )
    )
    return seed if ok else None


def _check_chain(header: Header, envelopes: list[Envelope], report: Report) -> None:
    prev = GENESIS_HASH
    for expected, e in enumerate(envelopes, start=1):
        problem = None
        if e.version != expected or e.game != header.game:
            problem = f"event {expected} is numbered {e.version} of game {e.game}"
        elif e.prev_hash != prev:
            problem = f"event {e.version} does not link to the hash of event {e.version - 1}"
        elif chain_hash(prev, e) != e.hash:
            problem = f"event {e.version} does not match its hash: its content was changed"
        if problem:
            report.checks.append(Check("hash_chain", False, problem, expected))
            return
        prev = e.hash
    report.checks.append(Check("hash_chain", True, f"{len(envelopes)} events chained without a gap"))


def _batches(envelopes: list[Envelope]) -> list[list[Envelope]]:
    """The events of each command, and each platform event on its own."""
    batches: list[list[Envelope]] = []
    for e in envelopes:
        if e.cause is not None or e.type in PLATFORM_TYPES or not batches:
            batches.append([])
        batches[-1].append(e)
    return batches


def _replay_and_redecide(
    header: Header, envelopes: list[Envelope], decider: Decider, seed: bytes | None, report: Report, ai: _AiCheck
) -> None:
    events_of = msgspec.msgpack.Decoder(logged_event_type(decider))
    commands_of = msgspec.msgpack.Decoder(decider.command_type)
    # a fork copied from an ended game: its first `at` commands were decided with the parent's seed;
    # a fork dealt from a running game starts afresh at version 1 (its deal is decided with its own)
    lineage = header.lineage or {}
    prefix = 0 if lineage.get("redealt") else lineage.get("at", 0)
    state, redecided, redecide_failure = decider.initial_state(), 0, None
    game_events: list[Any]
    platform, game_events, names = PlatformCheck(header, decider, prefix), [], dict[int, str]()
    for batch in _batches(envelopes):
        first = batch[0].version
        events, unreadable = _decode(batch, events_of)
        try:
            command = commands_of.decode(batch[0].cause) if batch[0].cause else None
        except Exception:  # as above
            unreadable = unreadable or first
        if unreadable:
            report.checks.append(Check("replay", False, f"event {unreadable} cannot be read", unreadable))
            return
        if seed is not None and command is not None and first > prefix and redecide_failure is None:
            redecide_failure = _redecide(decider, state, command, seed, header.game, first - 1, events)
            redecided += redecide_failure is None
        if batch[0].provenance is not None and command is not None:
            ai.check(state, batch[0], command)
        platform.check(state, batch, events)
        game_events = events if command is not None else game_events
        for e, event in zip(batch, events):
            text = words(decider, state, event, bool(header.seed), names)  # from the state before the event
            names = named(names, event)
            try:
                state = evolve(decider, state, event)
            except Exception:  # an event that cannot have happened (a damaged log)
                report.checks.append(Check("replay", False, f"event {e.version} cannot be applied", e.version))
                return
            caused = e.command if command is not None and e is batch[0] else None
            report.story.append(story_line(decider, state, e, text, caused, bool(header.seed)))
    report.checks.append(Check("replay", True, f"{len(envelopes)} events replay"))
    _add_redecide_check(report, seed, redecided, redecide_failure, prefix)
    report.checks.extend(ai.results())
    report.checks.append(Check("platform_events", *platform.result()))
    _check_scores(decider, state, game_events, report)


def _decode(batch: list[Envelope], decoder) -> tuple[list, int | None]:
    """The batch's events, and the version of the first one that cannot be decoded (if any)."""
    events = []
    for e in batch:
        try:
            events.append(decoder.decode(e.payload))
        except Exception:  # a damaged log may fail in any way (bad UTF-8, wrong types, …): report it
            return events, e.version
    return events, None


def _redecide(decider, state, command, seed, game, version, recorded) -> int | None:
    """None when deciding the command again gives exactly the recorded events, else the version
    of the first event that differs."""
    try:
        again = decider.decide(state, command, game_rng(seed, game, version))
    except Exception:  # refused, or a state no real game reaches (a forged log) breaks the rules code
        return version + 1
    for offset, (a, b) in enumerate(zip(again, recorded), start=1):
        if a != b:
            return version + offset
    return None if len(again) == len(recorded) else version + min(len(again), len(recorded)) + 1


def _add_redecide_check(report: Report, seed, redecided: int, failure: int | None, prefix: int) -> None:
    if seed is None:
        report.checks.append(Check("commands_redecided", None, "needs the revealed seed"))
    elif failure is not None:
        report.checks.append(
            Check(
                "commands_redecided",
                False,
                f"deciding the recorded command again gives another event {failure} "
                "(a changed command, event or random outcome)",
                failure,
            )
        )
    else:
        after = f" after the copied prefix of {prefix} events" if prefix else ""
        report.checks.append(
            Check(
                "commands_redecided",
                True,
                f"{redecided} commands decided again{after} give exactly the recorded events and random outcomes",
            )
        )


class _AiCheck:
    """The AI commands' provenance: the view each decided from, and optionally the decision."""

    def __init__(self, bots: Bots | None, rerun: bool, older: str | None = None, running: str = "") -> None:
        """`older`: the engine that recorded the game, when not the one `running` here."""
        self.bots, self.rerun, self.older, self.running = bots, rerun, older, running
        self.view_failure: int | None
        self.rerun_failure: int | None
        self.commands, self.rerun_count, self.view_failure, self.rerun_failure = 0, 0, None, None
        self.rerun_why = "chooses another command"  # or why the bot could not be run again

    def check(self, state, e: Envelope, command) -> None:
        self.commands += 1
        if self.bots is None or self.older is not None or self.view_failure is not None:
            return
        provenance = e.provenance or {}
        try:
            knowledge = self.bots.knowledge(state, e.seat)  # type: ignore[arg-type]  # no seat: fails, as below
            seen = self.bots.view_hash(knowledge) == provenance.get("view")
        except Exception:  # a damaged log (no seat, a seat out of range): a failure, not a crash
            seen = False
        if not seen:
            self.view_failure = e.version
        elif self.rerun and self.rerun_failure is None:
            self.rerun_count += 1
            same = self._same_choice(knowledge, e, command)
            if same is not True:
                self.rerun_failure, self.rerun_why = e.version, same or self.rerun_why

    def _same_choice(self, knowledge, e: Envelope, command) -> bool | str:
        """True if the recorded bot chooses the command again; False if another; else why it cannot run."""
        provenance = e.provenance or {}
        try:
            assert self.bots is not None  # check() calls this only with bots
            bot = self.bots.make(provenance["bot"], **json.loads(provenance["params"]))
            again = bot.choose(knowledge, e.seat, random.Random(provenance["rng"]))
        except Exception as error:  # an unknown bot, bad parameters or no RNG seed: it cannot be confirmed
            return f"cannot be run again ({type(error).__name__}: {error})"
        return msgspec.to_builtins(again) == msgspec.to_builtins(command)

    def results(self) -> list[Check]:
        if self.commands == 0:
            return [Check("ai_views", True, "no AI commands in this game")]
        if self.bots is None:
            return [Check("ai_views", None, f"{self.commands} AI commands, but no bots are known for this game kind")]
        if self.older is not None:  # its knowledge then held other facts: the hashes cannot be rebuilt here
            return [
                Check(
                    "ai_views",
                    None,
                    f"{self.commands} AI commands recorded by {self.older}; this server runs {self.running}, "
                    "whose AI knowledge holds other public facts, so their views cannot be rebuilt here "
                    "(audit the game with that engine's release)",
                )
            ]
        checks = [
            Check(
                "ai_views",
                False,
                f"the AI command at event {self.view_failure} records the hash of a "
                "view that is not its seat's knowledge there",
                self.view_failure,
            )
            if self.view_failure is not None
            else Check(
                "ai_views",
                True,
                f"{self.commands} AI commands each decided from exactly its seat's knowledge (view hashes match)",
            )
        ]
        if not self.rerun:
            return checks
        if self.rerun_failure is not None:
            checks.append(
                Check(
                    "ai_decisions",
                    False,
                    f"the recorded bot, run again on its view at event {self.rerun_failure}, {self.rerun_why}",
                    self.rerun_failure,
                )
            )
        elif self.view_failure is not None:
            checks.append(Check("ai_decisions", None, "not run past the AI command whose view does not match"))
        else:
            checks.append(
                Check(
                    "ai_decisions",
                    True,
                    f"{self.rerun_count} AI commands chosen again, identically, by "
                    "the recorded bot with its parameters and RNG",
                )
            )
        return checks


def _check_scores(decider: Decider, state, last_events: list, report: Report) -> None:
    """The scores the events add up to are the scores the game announced at its end."""
    outcome = decider.outcome(state) if decider.is_terminal(state) else None
    announced = next((e.scores for e in reversed(last_events) if hasattr(e, "scores")), None)
    if outcome is None:
        report.checks.append(Check("final_scores", None, "the game has not ended"))
    elif announced != outcome.scores:
        report.checks.append(
            Check(
                "final_scores",
                False,
                f"the events add up to scores {score_words(outcome.scores)}, but the game announced "
                f"{score_words(announced) if announced is not None else 'none'}",
                report.events,
            )
        )
    else:
        won = and_list(player_name(seat) for seat in outcome.winners)
        report.checks.append(Check("final_scores", True, f"scores {score_words(outcome.scores)}, won by {won}"))
