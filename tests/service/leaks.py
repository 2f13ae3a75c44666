"""The leak sweep: random games played over HTTP, every GET route read by every kind of caller at
many moments, and a detector that finds in each response anything hidden from that caller then.

What is hidden from a caller at a moment (until the game ends; after the end only the tokens stay
secret, as everything else is public):

- unique secrets, found by exact search in every response's text: the seed (its hex, any 16 hex
  digits of it, base64, its bytes as a JSON array), every event hash and the chain's links, the
  view hashes of AI provenance, and, at every moment, the tokens (and their stored hashes) of
  every other caller of every game;
- what `seat_knowledge` leaves out for a seat (and, for a spectator or the admin, every seat's
  part): the other seats' hands and half-god values, the composition of the draw pile and of
  the half-god stacks. Views and legal options are checked by noninterference: the referee
  re-deals exactly these secrets at random, consistently with the caller's knowledge, and the
  caller's view (or options) of the re-dealt state must be the one the server sent. A path where
  they differ is information the response could only carry by depending on a hidden value;
- in events (the feed, the stream, the audit's story): the parts `redact` exists for, listed here
  independently (a card draw's cards, a half god's value from the stack, the hands of a
  reshuffle, each for everyone but its seat). Each event must equal `redact(event, viewer)`, with
  no hash, and none of those parts may show;
- in the card game (Pantheon, §22): the other seats' hands (but a hand the caller spies), the
  unseen cards, the cards Creation removed from another seat's hand and a sealed war commitment
  of the other side are what a re-deal changes; cards dealt or drawn unseen, a spied hand and the
  card taken from it, a war commitment and Creation's removed hands are the hidden parts of events;
- scores must be computable from the public events alone; refused commands of other seats show
  only seat, time and code; a running game has no export and no seed; and free text (error
  bodies, the audit, metrics, the lobby) is searched for the renderings of the caller's hidden
  hands, draw pile and half gods that are distinctive (three cards or more, of two kinds or more,
  and not something the caller legitimately sees).

Small numbers that appear everywhere are never searched for on their own: a hidden value is
recognised by where it stands (a path of a view, a field of an event) or by a rendering long
enough to be unique.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import random
import re
import time
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from domain import games as registry
from domain.kernel import evolve, fold, is_platform, narrate
from domain.pantheon import events as ev
from domain.pantheon import options as _options
from domain.pantheon import views as _views
from domain.pantheon.choices import choices as _true_choices
from domain.pantheon.state import State, clone
from domain.pantheon.vocabulary import CARDS
from domain.pantheon_cards import events as cards_events
from domain.pantheon_cards import options as _cards_options
from domain.pantheon_cards import views as _cards_views
from domain.pantheon_cards.choices import choices as _cards_choices
from domain.pantheon_cards.state import clone as cards_clone
from domain.pergamon import events as pergamon_events
from domain.pergamon import options as _pergamon_options
from domain.pergamon import views as _pergamon_views
from domain.pergamon.choices import choices as _pergamon_choices
from domain.pergamon.state import clone as pergamon_clone
from projections.registry import projections_for
from service.ai.worker import play_turn
from service.http.app import create_app
from service.read.projector import Projector
from service.store.codec import GENESIS_HASH
from service.write import GameService
from service.write.folds import decode_event

from .api_helpers import RELAXED, app_settings, serve, wire

# The references, taken before any test can plant a leak in the modules they come from.
TRUE_REDACT = _views.redact
TRUE_PUBLIC_VIEW = _views.public_view
TRUE_SEAT_VIEW = _views.seat_view
TRUE_LEGAL_OPTIONS = _options.legal_options
TRUE_CHOICES = _true_choices
WINDOW = 16  # hex digits: any run this long of a secret hex string is a leak
REDEALS = 2  # random re-deals per noninterference check
WRONG_PER_CALLER = 2  # wrong requests each caller sends at each moment (drawn from a list)
_HEX_RUN = re.compile(r"[0-9a-fA-F]{%d,}" % WINDOW)  # noqa: UP031 (an f-string would double the braces)
TOKEN_LENGTH = 32  # secrets.token_urlsafe(24), the seat and admin tokens
_TOKEN_RUN = re.compile(r"[A-Za-z0-9_\-]{%d,}" % TOKEN_LENGTH)  # noqa: UP031
EVENT_FIELDS = {"version", "type", "recorded_at", "seat", "command", "payload", "text", "hash"}
TEXT_VIEWERS = (None, 0, 1, 2, 3, 4, 5)  # the texts kept per event: a spectator's and every seat's


def normal(value: Any) -> Any:
    """JSON-normal form (tuples as lists, structs as dicts), to compare with a response."""
    return json.loads(msgspec.json.encode(value))


# --- callers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Caller:
    name: str  # "spectator", "admin", "seat 2"
    seat: int | None  # the viewer: None for a spectator and for the admin
    token: str | None

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


@dataclass(frozen=True)
class Finding:
    route: str
    caller: str
    game: str
    version: int  # the game's version at the moment
    what: str

    def __str__(self) -> str:
        return f"{self.route} as {self.caller} (game {self.game} at v{self.version}): {self.what}"


# --- the referee's truth about a game --------------------------------------------------------


class GameTruth:
    """Everything about one game as the referee knows it: all stored envelopes, the seed, the
    tokens, and the full state at any version."""

    def __init__(self, referee: GameService, game: str, admin: str, tokens: dict[int, str], parent: str | None = None):
        self.referee, self.game, self.admin, self.tokens, self.parent = referee, game, admin, tokens, parent
        self.envelopes: list = []
        self.events: list = []
        self.seed_hex = ""
        self.finished = False
        self.hex_windows: set[str] = set()  # every 16-digit run of the seed, the hashes, the AI view hashes
        self._states: dict[int, State] = {}
        self._current: State | None = None  # the state at `version`, evolved as events arrive
        self._feeds: dict[int | None, list[str]] = {}  # viewer -> its redacted events, as text
        # viewer -> each event in words as the game narrates it for the viewer (the truly redacted
        # event and the state before it)
        self.texts: dict[int | None, list[str]] = {viewer: [] for viewer in TEXT_VIEWERS}
        self.decider = None
        self.secrets: Secrets = SECRETS["pantheon"]
        self.revoked: list[str] = []  # seat tokens that stopped working when their seats were re-issued

    async def refresh(self) -> None:
        if self.decider is None:
            self.decider = await self.referee.decider(self.game)
            self.secrets = SECRETS[self.decider.kind]
        new = await self.referee.store.read(self.game, len(self.envelopes))
        self.envelopes += new
        fresh = [decode_event(self.decider, e) for e in new]
        self.events += fresh
        for event in fresh:  # the state before each event, for its texts (evolve changes it in place)
            for viewer in TEXT_VIEWERS:
                shown = self.secrets.redact(event, viewer) if not is_platform(event) else event
                self.texts[viewer].append(narrate(self.decider, self._current, shown, viewer))
            self._current = evolve(self.decider, self._current, event)
        meta = await self.referee.store.records.meta(self.game)
        if not self.seed_hex:
            self.seed_hex = meta["seed"].decode()
            self.hex_windows |= windows(self.seed_hex)
        for e in new:
            for secret in (e.hash, e.prev_hash, (e.provenance or {}).get("view", "")):
                if secret and secret != GENESIS_HASH:
                    self.hex_windows |= windows(secret)
        self.finished = "finished" in meta

    @property
    def version(self) -> int:
        return len(self.envelopes)

    @property
    def players(self) -> int:
        return self.state(self.version).players

    def state(self, version: int) -> State:
        """The full state after event `version` (the caller must not change it)."""
        if version == self.version and self._current is not None:
            return self._current
        if version not in self._states:
            if len(self._states) > 8:
                self._states.pop(next(iter(self._states)))
            self._states[version] = fold(self.decider, self.events[:version])
        return self._states[version]

    def feed_text(self, viewer: int | None) -> str:
        """The viewer's redacted events in the renderings a text could use: what it may read anyway."""
        feed = self._feeds.setdefault(viewer, [])
        for event in self.events[len(feed) :]:
            shown = normal(self.secrets.redact(event, viewer))
            feed.append(f"{json.dumps(shown)} {json.dumps(shown, separators=(',', ':'))} {shown!r}")
        return "\n".join(feed)

    def callers(self) -> list[Caller]:
        return [Caller("spectator", None, None), Caller("admin", None, self.admin)] + [
            Caller(f"seat {s}", s, t) for s, t in sorted(self.tokens.items())
        ]

    def all_tokens(self) -> list[str]:
        return [self.admin, *self.tokens.values()]


class Registry:
    """Every game of the sweep, so that a response about one game is also searched for the
    secrets of every other (the lobby and the metrics cover them all)."""

    def __init__(self) -> None:
        self.games: dict[str, GameTruth] = {}
        self.tokens: dict[str, str] = {}  # token -> what it is
        self.token_hashes: set[str] = set()  # 16-digit windows of the tokens' and invite codes' stored hashes
        self.codes: dict[str, str] = {}  # invite code -> what it is (shorter than a token: searched as a whole)

    def add(self, truth: GameTruth) -> None:
        self.games[truth.game] = truth
        for token in truth.all_tokens():
            self.add_token(truth, token)

    def add_token(self, truth: GameTruth, token: str) -> None:
        assert len(token) == TOKEN_LENGTH, "the token search assumes tokens of 32 characters"
        self.tokens[token] = f"a token of game {truth.game}"
        self.token_hashes |= windows(hashlib.sha256(token.encode()).hexdigest())

    def add_code(self, truth: GameTruth, code: str) -> None:
        self.codes[code] = f"an invite code of game {truth.game}"
        self.token_hashes |= windows(hashlib.sha256(code.encode()).hexdigest())

    def running(self, game: str) -> bool:
        truth = self.games.get(game)
        return truth is not None and not truth.finished

    def hex_windows(self) -> list[set[str]]:
        """The sets of hex windows hidden from everyone now."""
        return [self.token_hashes] + [t.hex_windows for t in self.games.values() if not t.finished]

    def seed_renderings(self) -> dict[str, str]:
        """The seeds of the running games in other encodings than hex."""
        out = {}
        for truth in self.games.values():
            if truth.finished or not truth.seed_hex:
                continue
            seed = bytes.fromhex(truth.seed_hex)
            for text in (
                base64.b64encode(seed).decode(),
                base64.urlsafe_b64encode(seed).decode().rstrip("="),
                json.dumps(list(seed)),
                json.dumps(list(seed), separators=(",", ":")),
            ):
                out[text] = f"the seed of game {truth.game}"
        return out


def windows(secret: str) -> set[str]:
    secret = secret.lower()
    return {secret[i : i + WINDOW] for i in range(len(secret) - WINDOW + 1)}


# --- what one caller may not see -------------------------------------------------------------


def redeal(state: State, keep: int | None, rnd: random.Random) -> State:
    """The state with every secret hidden from `keep` (a seat, or None: from everyone) dealt
    again at random, consistently with what `keep` knows (as `seat_knowledge` defines it): the
    other hands (same sizes) and the draw pile from their pooled cards; the other seats' half
    gods and the two half-god stacks (1-3 and 4-6, same sizes) from their pooled values."""
    s = clone(state)
    others = [i for i in range(len(s.seats)) if i != keep]
    pool = [c for c, n in enumerate(s.draw_pile) for _ in range(n)]
    for i in others:
        pool += [c for c, n in enumerate(s.seats[i].hand) for _ in range(n)]
    rnd.shuffle(pool)
    for i in others:
        size = sum(s.seats[i].hand)
        s.seats[i].hand, pool = _counts(pool[:size]), pool[size:]
    s.draw_pile = _counts(pool)
    halves = s.half_gods_low + s.half_gods_high + [v for i in others for v in s.seats[i].half_gods]
    low = [v for v in halves if v <= 3]
    high = [v for v in halves if v > 3]
    rnd.shuffle(low)
    rnd.shuffle(high)
    n_low, n_high = len(s.half_gods_low), len(s.half_gods_high)
    s.half_gods_low, s.half_gods_high = low[:n_low], high[:n_high]
    rest = low[n_low:] + high[n_high:]
    rnd.shuffle(rest)
    for i in others:
        n = len(s.seats[i].half_gods)
        s.seats[i].half_gods, rest = rest[:n], rest[n:]
    return s


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * len(CARDS)
    for c in cards:
        counts[c] += 1
    return counts


def hidden_atoms(event: Any, viewer: int | None) -> list[tuple[str, Any]]:
    """The parts of an event hidden from `viewer` until the end (independently of `redact`):
    (field, value) pairs; `hands` is given per seat as ("hands[i]", hand)."""
    if isinstance(event, ev.CardsDrawn) and event.seat != viewer and event.cards:
        return [("cards", list(event.cards))]
    if isinstance(event, ev.HalfGodTaken) and event.source == "stack" and event.seat != viewer:
        return [("value", event.value)]
    if isinstance(event, ev.HandsReshuffled):
        return [(f"hands[{i}]", list(h)) for i, h in enumerate(event.hands) if i != viewer and h]
    return []


def _pantheon_hidden_values(state: State, caller: int | None) -> list[tuple[str, Any]]:
    """Distinctive hidden things of a Pantheon game: other seats' hands and half gods, the draw pile."""
    values: list[tuple[str, Any]] = []
    for i, seat in enumerate(state.seats):
        if i == caller:
            continue
        if _distinctive(seat.hand):
            cards = [c for c, n in zip(CARDS, seat.hand) for _ in range(n)]
            values += [(f"seat {i}'s hand", _hand_dict(seat.hand)), (f"seat {i}'s hand", cards)]
        if seat.half_gods:
            values += [
                (f"seat {i}'s half gods", f'"half_gods": {json.dumps(sorted(seat.half_gods))}'),
                (f"seat {i}'s half gods", f"'half_gods': {sorted(seat.half_gods)!r}"),
            ]
    if _distinctive(state.draw_pile):
        values.append(("the draw pile's cards", _hand_dict(state.draw_pile)))
    return values


def _vp_secret_from(state: Any, keep: int | None) -> list[int]:
    """The Pergamon seats whose VP `keep` may not see (R26: with secret VP, until the end)."""
    if state.options.vp_visibility != "secret" or state.finished:
        return []
    return [i for i in range(len(state.seats)) if i != keep]


def pergamon_redeal(state: Any, keep: int | None, rnd: random.Random) -> Any:
    """A Pergamon state with the VP hidden from `keep` drawn again at random (its only secret: the
    state holds no undrawn chance, rules §10)."""
    s = pergamon_clone(state)
    for i in _vp_secret_from(s, keep):
        s.seats[i].vp = rnd.randint(0, 60)
    return s


def pergamon_hidden_atoms(event: Any, viewer: int | None) -> list[tuple[str, Any]]:
    """The VP amounts of a secret-VP game's events hidden from `viewer` (listed apart from `redact`)."""
    if not getattr(event, "secret", False):
        return []
    if isinstance(event, pergamon_events.Exhibited) and event.seat != viewer:
        return [("vp", event.vp)]
    if isinstance(event, pergamon_events.MarkersScored):
        return [(f"points[{i}]", p) for i, p in enumerate(event.points) if i != viewer]
    if isinstance(event, pergamon_events.AwardGiven) and event.winners and viewer not in event.winners:
        return [("vp", event.vp)]
    if isinstance(event, pergamon_events.FinalBonusGiven):
        return [(f"bonuses[{i}]", msgspec.to_builtins(b)) for i, b in enumerate(event.bonuses) if b.seat != viewer]
    return []


def _cards_unknown(state: Any, keep: int | None) -> list[int]:
    """The card game's seats whose hands `keep` may not see (§22): every other seat's, but the
    hand it spies while Spies is played."""
    return [
        i
        for i in range(state.players)
        if i != keep and not (keep is not None and state.spy == keep and state.spied == i)
    ]


def cards_redeal(state: Any, keep: int | None, rnd: random.Random) -> Any:
    """A card game's state with every card whose place `keep` may not know dealt again at random
    (§22): the other seats' hands (but a hand it spies), the cards Creation removed from them and
    the unseen cards (the deck and the cards removed at setup), pooled and dealt back in the same
    sizes; and a war commitment of the other side, while sealed, chosen again among its columns."""
    s = cards_clone(state)
    others = _cards_unknown(s, keep)
    pool = [*s.unseen, *(c for i in others for c in s.hands[i]), *(c for i in others for c in s.removed_hands[i])]
    rnd.shuffle(pool)
    for i in others:
        size = len(s.hands[i])
        s.hands[i], pool = pool[:size], pool[size:]
        size = len(s.removed_hands[i])
        s.removed_hands[i], pool = pool[:size], pool[size:]
    s.unseen = sorted(pool)
    war = s.war
    if war is not None and war.stage in ("commit_attacker", "commit_defender"):
        for side, seat in enumerate((war.attacker, war.defender)):
            columns = [c.id for c in s.columns[seat]]
            if seat != keep and war.committed[side] and columns:
                war.committed[side] = rnd.sample(columns, rnd.randint(1, len(columns)))
    return s


def cards_hidden_atoms(event: Any, viewer: int | None) -> list[tuple[str, Any]]:
    """The parts of a card game's events hidden from `viewer` (listed apart from `redact`, §22): a
    card dealt or drawn unseen, a spied hand and the card taken from it, a war commitment, the
    cards Creation removed from another seat's hand."""
    e = cards_events
    if isinstance(event, e.CardDealt) and event.seat != viewer and event.card:
        return [("card", event.card)]
    if isinstance(event, e.CardDrawn) and event.seat != viewer and event.source in ("deck", "extra", "chaos"):
        return [("card", event.card)] if event.card else []
    if isinstance(event, e.HandSpied) and viewer not in (event.spy, event.target) and event.hand:
        return [("hand", list(event.hand))]
    if isinstance(event, e.SpiedCardTaken) and viewer not in (event.spy, event.target) and event.card:
        return [("card", event.card)]
    if isinstance(event, e.WarCommitted) and event.seat != viewer and event.columns:
        return [("columns", list(event.columns))]
    if isinstance(event, e.CreationCleared):
        return [(f"hands[{i}]", list(h)) for i, h in enumerate(event.hands) if i != viewer and h]
    return []


def _cards_hidden_values(state: Any, caller: int | None) -> list[tuple[str, Any]]:
    """Distinctive hidden things of a card game (card ids are unique: any three cards together):
    the other seats' hands and the cards Creation removed from them."""
    values: list[tuple[str, Any]] = []
    for i in _cards_unknown(state, caller):
        for what, cards in (
            (f"seat {i}'s hand", state.hands[i]),
            (f"seat {i}'s removed cards", state.removed_hands[i]),
        ):
            if len(cards) >= 3:
                values += [(what, list(cards)), (what, sorted(cards))]
    return values


@dataclass(frozen=True)
class Secrets:
    """What one game hides and how: its true renderings (taken before any test plants a leak), a
    re-deal of what a caller may not know, the hidden parts of its events, the distinctive hidden
    values a free text could show, its random player and the options of the games swept."""

    redact: Any
    public_view: Any
    seat_view: Any
    legal_options: Any
    choices: Any
    redeal: Any
    hidden_atoms: Any
    hidden_values: Any
    random_command: Any
    options: dict
    scores: Any
    commands_per_player: int = 80  # about how many commands a game of it lasts, per player


def _secrets(kind: str, **parts: Any) -> Secrets:
    game = registry.get(kind)
    return Secrets(random_command=game.random_command, scores=game.decider.scores, **parts)


SECRETS = {
    "pantheon": _secrets(
        "pantheon",
        redact=TRUE_REDACT,
        public_view=TRUE_PUBLIC_VIEW,
        seat_view=TRUE_SEAT_VIEW,
        legal_options=TRUE_LEGAL_OPTIONS,
        choices=TRUE_CHOICES,
        redeal=redeal,
        hidden_atoms=hidden_atoms,
        hidden_values=_pantheon_hidden_values,
        options={},
    ),
    "pergamon": _secrets(
        "pergamon",
        redact=_pergamon_views.redact,
        public_view=_pergamon_views.public_view,
        seat_view=_pergamon_views.seat_view,
        legal_options=_pergamon_options.legal_options,
        choices=_pergamon_choices,
        redeal=pergamon_redeal,
        hidden_atoms=pergamon_hidden_atoms,
        hidden_values=lambda state, caller: [],  # VP are small numbers: found by where they stand
        options={"vp_visibility": "secret", "variant_sorting": True},
    ),
    "pantheon_cards": _secrets(
        "pantheon_cards",
        redact=_cards_views.redact,
        public_view=_cards_views.public_view,
        seat_view=_cards_views.seat_view,
        legal_options=_cards_options.legal_options,
        choices=_cards_choices,
        redeal=cards_redeal,
        hidden_atoms=cards_hidden_atoms,
        hidden_values=_cards_hidden_values,
        options={"game_length": "short"},  # the shortest game (rules §3): about 45 commands per player
        commands_per_player=40,
    ),
}


def _renderings(value: Any) -> list[str]:
    """Ways a structured value could be written in a text."""
    return [json.dumps(value), json.dumps(value, separators=(",", ":")), repr(value)]


def _hand_dict(counts: list[int]) -> dict[str, int]:
    return {card: n for card, n in zip(CARDS, counts) if n}


def _distinctive(counts: list[int]) -> bool:
    return sum(counts) >= 3 and sum(1 for n in counts if n) >= 2


def diff_paths(got: Any, want: Any, path: str = "", limit: int = 5) -> list[str]:
    """Where two JSON values differ (at most `limit` paths)."""
    out: list[str] = []
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sorted(set(got) | set(want), key=str):
            if len(out) >= limit:
                break
            if key not in want:
                out.append(f"{path}.{key} (not in the caller's view)")
            elif key not in got:
                out.append(f"{path}.{key} (missing)")
            else:
                out += diff_paths(got[key], want[key], f"{path}.{key}", limit - len(out))
    elif isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            if len(out) >= limit:
                break
            out += diff_paths(a, b, f"{path}[{i}]", limit - len(out))
    elif got != want:
        out.append(path or "(the whole body)")
    return out


class Moment:
    """What is hidden from one caller of one game at one moment, and the checks of its responses."""

    def __init__(self, registry: Registry, truth: GameTruth, caller: Caller, rnd: random.Random):
        self.registry, self.truth, self.caller, self.rnd = registry, truth, caller, rnd
        self.version, self.finished = truth.version, truth.finished
        self.windows = registry.hex_windows()
        self.seeds = registry.seed_renderings()
        self.findings: list[Finding] = []
        self._texts: list[tuple[str, str]] | None = None

    # -- reporting
    def found(self, route: str, what: str) -> None:
        self.findings.append(Finding(route, self.caller.name, self.truth.game, self.version, what))

    # -- exact secrets, in any text
    def scan_text(self, route: str, text: str) -> None:
        for match in _HEX_RUN.finditer(text):
            for secrets in self.windows:
                hit = windows(match.group()) & secrets
                if hit:
                    self.found(route, f"a secret hex string ({min(hit)}…) in {match.group()[:80]!r}")
                    break
        tokens = self.registry.tokens
        for match in _TOKEN_RUN.finditer(text):
            run = match.group()
            for i in range(len(run) - TOKEN_LENGTH + 1):
                token = run[i : i + TOKEN_LENGTH]
                if token in tokens and token != self.caller.token:
                    self.found(route, f"{tokens[token]} in the body")
                    break
        for secret, what in [*self.seeds.items(), *self.registry.codes.items()]:
            if secret in text:
                self.found(route, f"{what} in the body")

    def _hidden_texts(self) -> list[tuple[str, str]]:
        """Distinctive renderings of the caller's hidden hands, draw pile and half gods."""
        if self._texts is None:
            self._texts = []
            if not self.finished:
                state = self.truth.state(self.version)
                legit = self._legit_text(state)
                for what, value in self.truth.secrets.hidden_values(state, self.caller.seat):
                    for text in [value] if isinstance(value, str) else _renderings(value):
                        if text not in legit:
                            self._texts.append((what, text))
        return self._texts

    def _legit_text(self, state: State) -> str:
        """What the caller may read anyway: its view, its options and its event feed (a rendering
        found there is not distinctive: a public discard can look like a hidden hand)."""
        seat, secrets = self.caller.seat, self.truth.secrets
        legit = [secrets.public_view(state) if seat is None else secrets.seat_view(state, seat)]
        if seat is not None:
            legit.append(secrets.legal_options(state, seat))
        return " ".join(
            [json.dumps(normal(v)) + json.dumps(normal(v), separators=(",", ":")) + repr(normal(v)) for v in legit]
            + [self.truth.feed_text(seat)]
        )

    def scan_free_text(self, route: str, text: str) -> None:
        for what, rendering in self._hidden_texts():
            if rendering in text:
                self.found(route, f"{what} ({rendering}) in the body")

    # -- routes
    def check(
        self, route: str, kind: str, status: int, text: str, body: Any, headers: dict | None = None, **ctx: Any
    ) -> None:
        """Check one response of route `kind` (its status, text, decoded body and headers)."""
        if status >= 500:
            self.found(route, f"status {status}: {text[:200]}")
        self.scan_text(route, text)
        if headers:
            self.scan_text(f"{route} (headers)", "\n".join(f"{k}: {v}" for k, v in headers.items()))
        if self.finished:
            return
        checker = getattr(self, f"_{kind}", None)
        if checker is None or status >= 300:
            self.scan_free_text(route, text)
            if kind == "export" and status < 300:
                self.found(route, "a running game was exported")
            return
        checker(route, body, **ctx)

    def _detail(self, route: str, body: dict, **_: Any) -> None:
        if body.get("seed") is not None:
            self.found(route, "the seed of a running game")
        if body.get("outcome") is not None:
            self.found(route, "the outcome of a running game")
        self._lineage(route, body.get("lineage"))
        self.scan_free_text(route, json.dumps(body))

    def _lobby(self, route: str, body: dict, **_: Any) -> None:
        for entry in body["games"]:
            self._lineage(route, entry.get("lineage"))
        self.scan_free_text(route, json.dumps(body))

    def _lineage(self, route: str, lineage: dict | None) -> None:
        if lineage and lineage.get("prefix_hash") is not None and self.registry.running(lineage.get("parent", "")):
            self.found(route, "a fork's prefix hash while its parent runs")

    def _view(self, route: str, body: dict, **_: Any) -> None:
        seat = self.caller.seat
        if body.get("seat") != seat:
            self.found(route, f"the view of seat {body.get('seat')} instead of the caller's ({seat})")
            return
        state, secrets = self.truth.state(body["version"]), self.truth.secrets
        render = (lambda s: secrets.public_view(s)) if seat is None else (lambda s: secrets.seat_view(s, seat))
        self._noninterference(route, "view", body["view"], state, render)

    def _page(self, route: str, body: dict, **_: Any) -> None:
        """The game's page: each part checked as the read it stands for (choices: a seat's only)."""
        self._detail(route, body["game"])
        self._view(route, body["view"])
        if body["choices"] is not None and self.caller.seat is None:
            self.found(route, "choices for a caller without a seat")
        elif body["choices"] is not None:
            self._choices(route, body["choices"])

    def _options(self, route: str, body: dict, **_: Any) -> None:
        seat = self.caller.seat
        if body.get("seat") != seat:
            self.found(route, f"the options of seat {body.get('seat')} instead of the caller's ({seat})")
            return
        state = self.truth.state(body["version"])
        self._noninterference(
            route, "options", body["options"], state, lambda s: self.truth.secrets.legal_options(s, seat)
        )

    def _choices(self, route: str, body: dict, **_: Any) -> None:
        """The root choices: the caller's choices of the true state, unchanged by any re-deal."""
        seat = self.caller.seat
        if body.get("seat") != seat:
            self.found(route, f"the choices of seat {body.get('seat')} instead of the caller's ({seat})")
            return
        got = [
            {
                "key": c["key"],
                "label": c["label"],
                "command": c.get("command"),
                "more": c.get("next") is not None,
                "refers": c.get("refers", {}),
            }
            for c in body["choices"]
        ]

        def render(s: State) -> list[dict]:
            return [
                {
                    "key": c.key,
                    "label": c.label,
                    "more": c.more,
                    "refers": c.refers,
                    "command": None if c.command is None else wire(c.command),
                }
                for c in self.truth.secrets.choices(s, seat, ()).choices
            ]

        self._noninterference(route, "choices", got, self.truth.state(body["version"]), render)

    def _noninterference(self, route: str, what: str, got: Any, state: State, render) -> None:
        """`got` must be the caller's `render` of the state, and that must not change when every
        secret hidden from the caller is dealt again."""
        want = normal(render(state))
        for path in diff_paths(got, want):
            self.found(route, f"{what}{path} differs from the caller's {what} of the true state")
        for _ in range(REDEALS):
            other = normal(render(self.truth.secrets.redeal(state, self.caller.seat, self.rnd)))
            for path in diff_paths(want, other):
                self.found(route, f"{what}{path} depends on information hidden from the caller")

    def _score(self, route: str, body: dict, **_: Any) -> None:
        """The score as the caller's own events give it (a seat sees its own secret score)."""
        version, seat = body["version"], self.caller.seat
        projection = next(p for p in projections_for(self.truth.decider.kind) if p.name == "score")
        model = projection.initial()
        for v, event in enumerate(self.truth.events[:version], start=1):
            if not is_platform(event):  # a seat re-issued changes no read model
                model = projection.apply(model, v, self.truth.secrets.redact(event, seat))
        own = seat if seat is not None and seat in projection.seats(model) else None
        for path in diff_paths(body["view"], normal(projection.view(model, own))):
            self.found(route, f"score{path} is not what the caller's events give")

    def _events(self, route: str, body: list | dict, **_: Any) -> None:
        viewer = self.caller.seat
        for item in body["events"] if isinstance(body, dict) else body:  # a page of /events, or the stream's
            v = item.get("version")
            if not isinstance(v, int) or not 1 <= v <= len(self.truth.events):
                self.found(route, f"an event numbered {v!r}")
                continue
            extra = set(item) - EVENT_FIELDS
            if extra:
                self.found(route, f"event {v} carries {sorted(extra)}")
            if item.get("hash") is not None:
                self.found(route, f"event {v}'s hash before the end")
            event, envelope = self.truth.events[v - 1], self.truth.envelopes[v - 1]
            payload = item.get("payload", {})
            for name, value in self.truth.secrets.hidden_atoms(event, viewer):
                key, _, index = name.partition("[")
                shown = payload.get(key)
                if index and isinstance(shown, list):
                    i = int(index.rstrip("]"))
                    shown = shown[i] if i < len(shown) else None
                if shown == value:
                    self.found(route, f"event {v} ({envelope.type}) shows {name} = {value!r}")
            want = {
                "version": v,
                "type": envelope.type,
                "recorded_at": envelope.recorded_at,
                "seat": envelope.seat,
                "command": envelope.command,
                "payload": normal(self.truth.secrets.redact(event, viewer)),
            }
            for path in diff_paths({k: item.get(k) for k in want}, want):
                self.found(route, f"event {v}{path} is not the event redacted for the caller")
            if item.get("text") != self.truth.texts[viewer][v - 1]:  # words of what the caller may not see
                self.found(route, f"event {v}'s text {item.get('text')!r} is not its words for the caller")

    def _rejected(self, route: str, body: list, **_: Any) -> None:
        for entry in body:
            if entry.get("seat") != self.caller.seat or self.caller.seat is None:
                shown = [k for k in ("command", "message", "version") if entry.get(k) is not None]
                if shown:
                    self.found(route, f"seat {entry.get('seat')}'s refused command shows {shown}")
        self.scan_free_text(route, json.dumps(body))

    def _audit(self, route: str, body: dict, **_: Any) -> None:
        secrets, state, story = self.truth.secrets, None, body.get("story_events", [])
        if len(story) != len(self.truth.events):
            self.found(route, f"the story tells {len(story)} events of {len(self.truth.events)}")
        for v, (line, event) in enumerate(zip(story, self.truth.events), start=1):
            state = evolve(self.truth.decider, state, event)  # a fold of its own, in step with the story
            if line.get("version") != v or line.get("seat") != self.truth.envelopes[v - 1].seat:
                self.found(
                    route, f"the story's line {v} is of event {line.get('version')!r}, seat {line.get('seat')!r}"
                )
            if secrets.scores and line.get("scores") != secrets.scores(state, False):
                self.found(route, f"the story's line of event {v} shows other scores than a spectator's")
            if line.get("text") != self.truth.texts[None][v - 1]:  # words of what a spectator may not see
                self.found(route, f"the story's line of event {v} says {line.get('text')!r}, not a spectator's words")
        for check in body.get("checks", []):
            if check.get("name") == "commitment" and check.get("ok") is not None:
                self.found(route, "the seed was checked (so known) before the end")
        self.scan_free_text(route, json.dumps(body))

    def _metrics(self, route: str, body: str, **_: Any) -> None:
        self.scan_free_text(route, body)


# --- talking to the server -------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    text: str
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.text)


class Transport:
    """Requests to the API under test (in process or over a socket); an event stream is read
    until it has sent the events up to a version, or for at most `timeout` seconds."""

    def __init__(self, client: httpx.AsyncClient, app: Any = None) -> None:
        self.client, self.app = client, app

    async def request(self, method: str, path: str, headers: dict | None = None, **kwargs: Any) -> Answer:
        r = await self.client.request(method, path, headers=headers, **kwargs)
        return Answer(r.status_code, r.text, dict(r.headers))

    async def stream(self, path: str, headers: dict, params: dict, until: int, timeout: float) -> Answer:
        if self.app is not None:
            return await _asgi_stream(self.app, path, headers, params, until, timeout)
        chunks: list[str] = []
        status, got = 0, {}
        try:
            async with asyncio.timeout(timeout):
                async with self.client.stream("GET", path, headers=headers, params=params) as r:
                    status, got = r.status_code, dict(r.headers)
                    async for chunk in r.aiter_text():
                        chunks.append(chunk)
                        if status != 200 or _last_id("".join(chunks)) >= until:
                            break
        except TimeoutError:
            pass
        return Answer(status, "".join(chunks), got)


def _last_id(text: str) -> int:
    ids = re.findall(r"^id: ?(\d+)\r?$", text, flags=re.M)
    return int(ids[-1]) if ids else 0


async def _asgi_stream(app, path: str, headers: dict, params: dict, until: int, timeout: float) -> Answer:
    """Call the ASGI app directly (httpx's ASGI transport waits for the end of the body, and a
    running game's stream has none): read until the events up to `until` arrived, then disconnect."""
    query = "&".join(f"{k}={v}" for k, v in params.items())
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver")] + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
    }
    done, disconnect = asyncio.Event(), asyncio.Event()
    sent_request = False
    out: dict[str, Any] = {"status": 0, "headers": {}, "body": []}

    async def receive():
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            out["body"].append(message.get("body", b""))
            text = b"".join(out["body"]).decode(errors="replace")
            if not message.get("more_body") or out["status"] != 200 or _last_id(text) >= until:
                done.set()

    task = asyncio.create_task(app(scope, receive, send))
    with suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), timeout)
    disconnect.set()
    try:
        await asyncio.wait_for(task, 1.0)
    except (TimeoutError, asyncio.CancelledError):
        pass
    except Exception:  # the app failing after the disconnect is not what is checked here
        pass
    return Answer(out["status"], b"".join(out["body"]).decode(errors="replace"), out["headers"])


def sse_data(text: str) -> list[dict]:
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("data:"):
                out.append(json.loads(line[5:].strip()))
    return out


# --- the sweep -------------------------------------------------------------------------------


@dataclass
class Report:
    games: int = 0
    players: dict[int, int] = field(default_factory=dict)
    ai_games: int = 0
    commands: int = 0
    moments: int = 0
    responses: int = 0
    bytes: int = 0
    refused: int = 0
    reissued: int = 0  # seats re-issued (and claimed again with the invite code)
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

    def add(self, other: Report) -> None:
        for name in (
            "games",
            "ai_games",
            "commands",
            "moments",
            "responses",
            "bytes",
            "refused",
            "reissued",
            "seconds",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for p, n in other.players.items():
            self.players[p] = self.players.get(p, 0) + n
        self.findings += other.findings

    def summary(self) -> dict:
        by_route: dict[str, int] = {}
        for f in self.findings:
            key = f.route.split("?")[0]
            by_route[key] = by_route.get(key, 0) + 1
        return {
            "games": self.games,
            "players": dict(sorted(self.players.items())),
            "ai_games": self.ai_games,
            "commands": self.commands,
            "moments": self.moments,
            "responses": self.responses,
            "bytes": self.bytes,
            "refused_commands": self.refused,
            "reissued_seats": self.reissued,
            "leaks": len(self.findings),
            "leaks_by_route": by_route,
            "seconds": round(self.seconds, 1),
        }


# Per game: a command sent out of turn, and commands the awaited seat cannot play (each refused).
REFUSED = {
    "pantheon": (
        {"type": "pass"},
        [{"type": "buy", "money": {"money_5": 9}}, {"type": "discard", "cards": {"priest": 7}}],
    ),
    "pergamon": (
        {"type": "skip_excavation"},
        [{"type": "excavate", "gallery": 9}, {"type": "exhibit", "tiles": [1, 2]}],
    ),
    "pantheon_cards": (
        {"type": "skip_play"},
        [{"type": "play_card", "card": "god.nobody", "column": "new"}, {"type": "repair_temple", "temple": "t.none"}],
    ),
}


class Sweeper:
    """Plays random games over HTTP and reads every route as every caller at chosen moments."""

    def __init__(
        self,
        api: Transport,
        referee: GameService,
        *,
        projector: Projector | None = None,
        registry: Registry | None = None,
        moments: int = 4,
        stream_timeout: float = 2.0,
        kind: str = "pantheon",
    ) -> None:
        self.api, self.referee, self.projector, self.kind = api, referee, projector, kind
        self.registry = registry or Registry()
        self.moments, self.stream_timeout = moments, stream_timeout
        self.report = Report()

    async def get(
        self,
        moment: Moment,
        route: str,
        kind: str,
        path: str,
        *,
        params: dict | None = None,
        headers: dict | None = None,
        method: str = "GET",
        **kwargs: Any,
    ) -> Answer:
        caller_headers = moment.caller.headers() if headers is None else headers
        answer = await self.api.request(method, path, headers=caller_headers, params=params, **kwargs)
        self._count(answer)
        body = answer.text
        if answer.status < 300 and answer.headers.get("content-type", "").startswith("application/json"):
            body = answer.json()
        moment.check(route, kind, answer.status, answer.text, body, answer.headers)
        return answer

    def _count(self, answer: Answer) -> None:
        self.report.responses += 1
        self.report.bytes += len(answer.text)

    async def new_game(self, seats: list[str]) -> GameTruth:
        created = await self.api.request(
            "POST",
            "/games",
            json={
                "kind": self.kind,
                "options": SECRETS[self.kind].options,
                "seats": [{"type": "ai", "level": "random"} if s == "ai" else {"type": "human"} for s in seats],
            },
        )
        assert created.status == 201, created.text
        game, admin = created.json()["game"], created.json()["admin_token"]
        tokens = {}
        for seat, kind in enumerate(seats):
            if kind == "human":
                claimed = await self.api.request("POST", f"/games/{game}/seats/{seat}/claim")
                assert claimed.status == 201, claimed.text
                tokens[seat] = claimed.json()["token"]
        truth = GameTruth(self.referee, game, admin, tokens)
        self.registry.add(truth)
        await truth.refresh()
        return truth

    async def play_one(self, truth: GameTruth, rnd: random.Random) -> bool:
        """One random command of the awaited seat (an AI seat's turn as the AI worker plays it);
        False once the game has ended."""
        state = truth.state(truth.version)
        if truth.decider.is_terminal(state):
            return False
        seat, version = truth.decider.awaited(state).seat, truth.version
        if seat not in truth.tokens:
            outcome = await play_turn(self.referee, truth.game, version, seat)
            assert outcome["outcome"] == "played", outcome
            # as a client would, read the game's status after the AI's turn: the API process
            # decides a command with expected_version on its cached fold, which an AI worker's
            # append leaves behind (409 with a stale current_version until something refreshes it)
            detail = await self.api.request("GET", f"/games/{truth.game}")
            self._count(detail)
            Moment(self.registry, truth, Caller("spectator", None, None), rnd).scan_text("GET /games/{id}", detail.text)
        else:
            command = wire(truth.secrets.random_command(state, seat, rnd))
            answer = await self.api.request(
                "POST",
                f"/games/{truth.game}/commands",
                json=command,
                headers={"Authorization": f"Bearer {truth.tokens[seat]}"},
                params={"expected_version": version},
            )
            assert answer.status == 201, answer.text
            self._count(answer)
            Moment(self.registry, truth, Caller(f"seat {seat}", seat, truth.tokens[seat]), rnd).scan_text(
                "POST /commands", answer.text
            )
        self.report.commands += 1
        await truth.refresh()
        return True

    async def sweep_game(self, seats: list[str], rnd: random.Random) -> GameTruth:
        """Play one random game to its end, sweeping at `moments` random moments and at the end."""
        started = time.perf_counter()
        truth = await self.new_game(seats)
        self.report.games += 1
        self.report.players[len(seats)] = self.report.players.get(len(seats), 0) + 1
        self.report.ai_games += "ai" in seats
        # sweep at random commands among the first of a game (of the commands it lasts)
        at = sorted(rnd.sample(range(2, SECRETS[self.kind].commands_per_player * len(seats)), self.moments))
        played, m = 0, 0
        while await self.play_one(truth, rnd):
            played += 1
            if played == 1 and truth.tokens:  # every moment sees a seat re-issued in the log
                await self.reissue_seat(truth, rnd)
            if m < len(at) and played == at[m]:
                await self.sweep_moment(truth, rnd, m)
                m += 1
        await self.sweep_moment(truth, rnd, m, end=True)
        self.report.seconds += time.perf_counter() - started
        return truth

    async def reissue_seat(self, truth: GameTruth, rnd: random.Random) -> None:
        """The admin re-issues a random human seat (its token lost) and its player claims it again
        with the invite code: from then on the old token and the code are secrets like any token,
        and the old token is refused."""
        seat = rnd.choice(sorted(truth.tokens))
        g, admin = f"/games/{truth.game}", Caller("admin", None, truth.admin)
        answer = await self.api.request("POST", f"{g}/seats/{seat}/token", headers=admin.headers())
        assert answer.status == 201, answer.text
        self._count(answer)
        Moment(self.registry, truth, admin, rnd).scan_text("POST /seats/{n}/token", answer.text)
        code = answer.json()["code"]
        self.registry.add_code(truth, code)
        claimed = await self.api.request("POST", f"{g}/seats/{seat}/claim", json={"invite": code})
        assert claimed.status == 201, claimed.text
        self._count(claimed)
        truth.revoked.append(truth.tokens[seat])
        truth.tokens[seat] = claimed.json()["token"]
        self.registry.add_token(truth, truth.tokens[seat])
        Moment(self.registry, truth, Caller(f"seat {seat}", seat, truth.tokens[seat]), rnd).scan_text(
            "POST /seats/{n}/claim", claimed.text
        )
        self.report.reissued += 1
        await truth.refresh()

    async def sweep_moment(self, truth: GameTruth, rnd: random.Random, index: int, end: bool = False) -> None:
        """Every caller reads the game's routes now; the heavier routes (lobby, full event list,
        stream, audit, export, metrics, score) go to one caller in turn (at the end, when only
        the tokens are still secret, to one seat and one of spectator and admin). Half the
        moments read views from the projector's read models (and read their writes)."""
        self.report.moments += 1
        projected = self.projector is not None and index % 2 == 0
        if projected:
            await self.projector.drain()
        if not truth.finished:
            await self.provoke_refusals(truth, rnd)
        await truth.refresh()
        callers = truth.callers()
        heavy = {callers[index % len(callers)].name}
        if end:
            heavy = {rnd.choice(callers[:2]).name, rnd.choice(callers[2:] or callers).name}
        findings = []
        for caller in callers:
            moment = Moment(self.registry, truth, caller, rnd)
            await self.read_routes(moment, caller.name in heavy, projected)
            findings += moment.findings
        self.report.findings += findings

    async def provoke_refusals(self, truth: GameTruth, rnd: random.Random) -> None:
        """A few refused commands, so that /rejected has something to hide: a seat out of turn,
        an impossible purchase by the awaited seat, a command naming another seat."""
        state = truth.state(truth.version)
        awaited = truth.decider.awaited(state).seat
        humans = sorted(truth.tokens)
        tries = []
        out_of_turn, impossible = REFUSED[truth.decider.kind]
        for seat in humans:
            if seat != awaited:
                tries.append((seat, out_of_turn))
        if awaited in truth.tokens:
            tries += [(awaited, {**command, "seat": awaited}) for command in impossible]
        if humans:
            seat = rnd.choice(humans)
            tries.append((seat, {**out_of_turn, "seat": (seat + 1) % state.players}))
        for seat, command in tries:
            caller = Caller(f"seat {seat}", seat, truth.tokens[seat])
            moment = Moment(self.registry, truth, caller, rnd)
            answer = await self.get(
                moment,
                "POST /commands (refused)",
                "error",
                f"/games/{truth.game}/commands",
                method="POST",
                json=command,
            )
            if answer.status < 300:
                moment.found("POST /commands (refused)", f"an impossible command was accepted: {command}")
            self.report.refused += answer.status == 422
            self.report.findings += moment.findings

    @staticmethod
    def stream_start(truth: GameTruth, caller: Caller, v: int, rnd: random.Random) -> int:
        """Where the stream (and `?after=N`) is read from: just before the newest event that hides something from
        the caller (so the stream always carries a secret to leak, where there is one: in some
        games such events are rare), else a few events back."""
        for i in range(v, max(0, v - 300), -1):
            event = truth.events[i - 1]
            if normal(truth.secrets.redact(event, caller.seat)) != normal(event):
                return max(0, i - 1 - rnd.randint(0, 5))
        return max(0, v - rnd.randint(1, 30))

    async def read_routes(self, moment: Moment, heavy: bool, projected: bool) -> None:
        truth, caller, rnd = moment.truth, moment.caller, moment.rnd
        g, v = f"/games/{truth.game}", truth.version
        earlier = rnd.randint(1, max(1, v - 1))
        after = self.stream_start(truth, caller, v, rnd)  # from before a secret, where there is one
        await self.get(moment, "GET /games/{id}", "detail", g)
        await self.get(moment, "GET /view", "view", f"{g}/view")
        await self.get(moment, "GET /page", "page", f"{g}/page")
        await self.get(moment, "GET /view?at=N", "view", f"{g}/view", params={"at": earlier})
        if projected:  # the read model is there: reading one's writes needs no wait for the projector
            await self.get(moment, "GET /view?min_version=V", "view", f"{g}/view", params={"min_version": v})
        await self.get(moment, "GET /score?at=N", "score", f"{g}/score", params={"at": earlier})
        await self.get(moment, "GET /events?after=N", "events", f"{g}/events", params={"after": after})
        await self.get(moment, "GET /rejected", "rejected", f"{g}/rejected")
        if caller.seat is not None:
            await self.get(moment, "GET /options", "choices", f"{g}/options")
            await self.get(moment, "GET /options/blocks", "options", f"{g}/options/blocks")
        await self.wrong_requests(moment)
        if not heavy:
            return
        await self.get(moment, "GET /games", "lobby", "/games", params={"limit": 10})
        await self.get(moment, "GET /score", "score", f"{g}/score")
        await self.get(moment, "GET /events", "events", f"{g}/events")
        await self.get(moment, "GET /audit", "audit", f"{g}/audit")
        await self.get(moment, "GET /export", "export", f"{g}/export")
        await self.get(moment, "GET /metrics", "metrics", "/metrics")
        stream_after = self.stream_start(truth, caller, v, rnd)
        if rnd.random() < 0.5:
            route, params, headers = "GET /stream?after=N", {"after": stream_after}, caller.headers()
        else:
            route, params, headers = (
                "GET /stream (Last-Event-ID)",
                {},
                {**caller.headers(), "Last-Event-ID": str(stream_after)},
            )
        answer = await self.api.stream(f"{g}/stream", headers, params, v, self.stream_timeout)
        self._count(answer)
        if answer.status == 200 and _last_id(answer.text) < v:
            moment.found(route, f"the stream sent up to {_last_id(answer.text)}, not {v}")
        moment.check(
            route,
            "events",
            answer.status,
            answer.text,
            sse_data(answer.text) if answer.status == 200 else None,
            answer.headers,
        )

    async def wrong_requests(self, moment: Moment) -> None:
        """Requests that must be refused; their error bodies are scanned like any other."""
        truth, caller = moment.truth, moment.caller
        g, v = f"/games/{truth.game}", truth.version
        wrong = [
            ("GET /view?at=future", f"{g}/view", {"at": v + 1000}, None),
            ("GET /score?at=0", f"{g}/score", {"at": 0}, None),
            ("GET /events?after=-1", f"{g}/events", {"after": -1}, None),
            ("GET /view?unknown", f"{g}/view", {"hand": "all"}, None),
            ("GET /view (malformed token)", f"{g}/view", None, {"Authorization": "Basic " + (caller.token or "x")}),
            ("GET /options (forged token)", f"{g}/options", None, {"Authorization": "Bearer forged-token"}),
            ("GET /games/{unknown}/view", "/games/ffffffffffffffff/view", None, None),
        ]
        if caller.seat is None:
            wrong.append(("GET /options (no seat)", f"{g}/options", None, None))
        if truth.revoked:  # a seat's token from before its re-issue
            wrong.append(
                (
                    "GET /view (a re-issued seat's old token)",
                    f"{g}/view",
                    None,
                    {"Authorization": f"Bearer {truth.revoked[-1]}"},
                )
            )
        elsewhere = [t for t in self.registry.games.values() if t.game != truth.game]
        if elsewhere:  # a real token, of another game
            token = moment.rnd.choice(elsewhere[-1].all_tokens())
            wrong.append(("GET /view (another game's token)", f"{g}/view", None, {"Authorization": f"Bearer {token}"}))
        for route, path, params, headers in moment.rnd.sample(wrong, WRONG_PER_CALLER):
            answer = await self.get(moment, route, "error", path, params=params, headers=headers)
            if answer.status < 400:
                moment.found(route, f"answered {answer.status} to a wrong request")


# --- running a sweep -------------------------------------------------------------------------


def seat_plan(players: int, rnd: random.Random) -> list[str]:
    """Human seats, and in about a third of the games one AI seat ("random") other than seat 0."""
    seats = ["human"] * players
    if rnd.random() < 1 / 3:
        seats[rnd.randrange(1, players)] = "ai"
    return seats


@asynccontextmanager
async def in_process(redis_url: str, prefix: str):
    """A Transport to an app on this Redis and key prefix (run on this event loop)."""
    app = create_app(app_settings(redis_url, prefix, quotas=RELAXED))
    async with serve(app) as client:
        yield Transport(client, app)


@asynccontextmanager
async def over_http(base_url: str):
    """A Transport to a running API process."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        yield Transport(client)


@asynccontextmanager
async def projector_on(referee: GameService):
    projector = Projector(referee.store)
    await projector.setup()
    yield projector


@asynccontextmanager
async def quiet_http_logs():
    """httpx logs every request at INFO: a sweep makes tens of thousands."""
    logger = logging.getLogger("httpx")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


async def run_sweep(
    api: Transport,
    referee: GameService,
    games_per_count: dict[int, int],
    seed: int,
    *,
    moments: int = 4,
    projector: Projector | None = None,
    kind: str = "pantheon",
) -> Report:
    """Sweep `games_per_count[p]` random games of p players (of `kind`) each, interleaving player counts."""
    rnd = random.Random(seed)
    sweeper = Sweeper(api, referee, projector=projector, moments=moments, kind=kind)
    plan = [p for p, n in sorted(games_per_count.items()) for _ in range(n)]
    rnd.shuffle(plan)
    async with quiet_http_logs():
        for players in plan:
            await sweeper.sweep_game(seat_plan(players, rnd), rnd)
    return sweeper.report
