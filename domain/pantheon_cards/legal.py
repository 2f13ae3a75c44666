"""The legal answers of a decision, as complete commands (rules §23.1): what `decide` accepts
is exactly what these functions list (decide checks a command against them), and the choice
trees and the random player are built from them. Migration's two-move answers are the one family
listed lazily (`migration_moves`), since listing every pair would be large."""

from __future__ import annotations

from . import commands as cmd
from .commands import NEW
from .rules import (
    card,
    comps,
    destinations,
    has_worshipers,
    in_battle,
    major_allowed,
    temple_protected,
    temples,
)
from .state import Column, State

TARGETED_POWERS = {"chaos", "mischief", "sea", "sun", "war"}


def draw_sources(s: State) -> list[str]:
    """§5.2: the non-empty sources."""
    out = []
    if s.deck > 0:
        out.append("deck")
    if s.general:
        out.append("general_discard")
    if s.gods:
        out.append("god_discard")
    return out


def plays(s: State, seat: int) -> list[cmd.PlayCard]:
    """§5.3: every legal step-2 play of the seat."""
    return [
        cmd.PlayCard(seat=seat, card=c, column=col)
        for c in sorted(set(s.hands[seat]))
        for col in destinations(s, c, seat)
    ]


def _all_worshipers(s: State) -> list[str]:
    return [w for cols in s.columns for col in cols for w in col.worshipers]


def _all_gods(s: State) -> list[str]:
    return [col.god for cols in s.columns for col in cols if col.god is not None]


def _all_columns(s: State) -> list[Column]:
    return [col for cols in s.columns for col in cols]


def _seats(s: State) -> range:
    return range(s.players)


def power_uses(s: State, seat: int, col: Column, slot: str) -> list[cmd.EmployPower]:
    """Every legal employment of the god in `col` (the seat's) in that slot (§12.1, R18)."""
    assert col.god is not None
    god = card(s, col.god)
    power = god.minor if slot == "minor" else god.major
    if comps(s).powers[power].constant or (slot == "major" and not major_allowed(s, col)):
        return []
    base = {"seat": seat, "god": col.god, "slot": slot}

    def use(**kw: object) -> cmd.EmployPower:
        return cmd.EmployPower(**base, **kw)  # type: ignore[arg-type]

    others = [t for t in _seats(s) if t != seat]
    if power == "beauty":
        out = []
        for g in _all_gods(s):
            out.append(use(mode="discard", target_god=g))
            out += [use(mode="move", target_god=g, column=c.id) for c in _all_columns(s) if c.god is None]
        return out
    if power == "chaos":
        return [use(target=t) for t in _seats(s)]
    if power == "creation":
        return [use()] if s.deck >= comps(s).constants["creation_min_deck"] and not in_battle(s) else []
    if power == "death":
        return [use(mode="downgrade", worshiper=w) for w in _all_worshipers(s)] + [
            use(mode="attack", target_god=g) for g in _all_gods(s)
        ]
    if power in ("earthquakes", "fire"):
        return [use(temple=c.temple) for t, c in temples(s) if c.temple and not temple_protected(s, t, seat)]
    if power == "fertility":
        return [use(worshiper=w) for w in _all_worshipers(s)]
    if power == "love":
        return [use(worshiper=w) for w in _all_worshipers(s) if w not in col.worshipers]
    if power == "mischief":
        return [use(target=t) for t in _seats(s) if s.hands[t]]
    if power in ("sea", "sun"):
        return [use(target=t) for t in others if has_worshipers(s, t)]
    if power == "war":
        return [use(target=t) for t in others] if has_worshipers(s, seat) else []
    if power == "weather":
        return [use(mode="famine", target=t) for t in others if has_worshipers(s, t)] + [
            use(mode="plenty", column=c.id) for c in _all_columns(s) if c.worshipers
        ]
    raise AssertionError(f"power {power} is not employed")


def power_commands(s: State, seat: int) -> list[cmd.EmployPower]:
    return [
        u for col in s.columns[seat] if col.god for slot in ("minor", "major") for u in power_uses(s, seat, col, slot)
    ]


def civ_uses(s: State, player: int, card_id: str, via: int | None = None) -> list[cmd.PlayCivilization]:
    """Every legal use of an `action` civilization card by `player` (§14), or via Mischief on seat
    `via` (the "via Mischief" column). Migration lists its one-move uses only; its two-move uses
    are `migration_moves` of the first move's result."""
    c = card(s, card_id)
    if c.timing != "action":
        return []
    base = {"seat": player, "card": card_id}

    def use(**kw: object) -> cmd.PlayCivilization:
        return cmd.PlayCivilization(**base, **kw)  # type: ignore[arg-type]

    targets = [t for t in _seats(s) if t != player] if via is None else [via]
    effect = c.effect
    if effect == "famine":
        return [use(target=t) for t in targets if has_worshipers(s, t)]
    if effect == "plague":
        return [use(target=t, column=col.id) for t in targets for col in s.columns[t] if col.worshipers]
    if effect == "damage_temple":
        return [
            use(target=t, temple=col.temple)
            for t in targets
            for col in s.columns[t]
            if col.temple and not temple_protected(s, t, player)
        ]
    if effect == "war":
        return [use(target=t) for t in targets] if has_worshipers(s, player) else []
    # cards for oneself name no target when played from the hand; via Mischief, the seat T
    subject, named = (player, None) if via is None else (via, via)
    if effect == "harvest":
        return [use(target=named, column=col.id) for col in s.columns[subject] if col.worshipers]
    if effect == "multiplier":
        return [use(target=named)]
    if effect == "repair_all":
        return [use(target=named)] if any(col.damaged for col in s.columns[subject]) else []
    if effect == "spies":
        return [use(target=t) for t in targets if s.hands[t]]
    if effect == "migration":
        return [use(target=named, moves=[m]) for m in migration_moves(s, subject)]
    return []


def migration_moves(s: State, subject: int) -> list[cmd.Move]:
    """One legal Migration move among `subject`'s columns (§14): a worshiper card to another of
    its columns or to a new column."""
    out = []
    for col in s.columns[subject]:
        for w in col.worshipers:
            out += [cmd.Move(worshiper=w, destination=o.id) for o in s.columns[subject] if o.id != col.id]
            out.append(cmd.Move(worshiper=w, destination=NEW))
    return out


def civ_commands(s: State, seat: int) -> list[cmd.PlayCivilization]:
    return [u for c in sorted(set(s.hands[seat])) if card(s, c).type == "civilization" for u in civ_uses(s, seat, c)]


def repairs(s: State, seat: int) -> list[cmd.RepairTemple]:
    return [cmd.RepairTemple(seat=seat, temple=col.temple) for col in s.columns[seat] if col.damaged and col.temple]


def mischief_plays(s: State, victim: int, card_id: str) -> list[cmd.MischiefPlay]:
    """§15.3-15.4: every legal play of Mischief's card by its victim on another seat (none during
    the Battle of Pantheons)."""
    if in_battle(s):
        return []
    c = card(s, card_id)
    out: list[cmd.MischiefPlay] = []
    for t in _seats(s):
        if t == victim:
            continue
        if c.type in ("worshiper", "temple", "god"):
            out += [cmd.MischiefPlay(seat=victim, target=t, column=d) for d in destinations(s, card_id, t)]
        else:
            for u in civ_uses(s, victim, card_id, via=t):
                out.append(cmd.MischiefPlay(seat=victim, target=t, column=u.column, temple=u.temple, moves=u.moves))
    return out


def commit_options(s: State, seat: int) -> list[str]:
    """W4: the seat's columns holding worshiper cards."""
    return [col.id for col in s.columns[seat] if col.worshipers]


def undefended_targets(s: State) -> list[str]:
    war = s.war
    assert war is not None
    return [
        col.temple
        for col in s.columns[war.defender]
        if col.temple and not temple_protected(s, war.defender, war.attacker)
    ]


def battle_cards(s: State, seat: int) -> list[str]:
    return sorted({c for c in s.hands[seat] if card(s, c).type == "civilization" and card(s, c).timing == "battle"})


def remaining_survivors(s: State) -> list[str]:
    war = s.war
    assert war is not None and war.victor is not None
    side = 0 if war.victor == war.attacker else 1
    return sorted(war.decks[side] + war.survivors[side])


def survivor_destinations(s: State, seat: int, cards: int) -> list[str]:
    return [col.id for col in s.columns[seat]] + [f"new:{k}" for k in range(1, cards + 1)]


def has_legal_power(s: State, seat: int) -> bool:
    """D1's test: the seat owns a god with a non-constant power that can be employed now."""
    return any(power_uses(s, seat, col, slot) for col in s.columns[seat] if col.god for slot in ("minor", "major"))
