"""The id scan (issue 27, "Done when"): every page of a played game — the game page with its end
screen and move log, its replay, its audit, the lobby with "Your games" — read as a person meets
it (the text, every tooltip, every label for a screen reader), must hold no id of the game's data
files or options, and nothing that looks like a program's dump.

What counts as an id, and how it is matched (the rule, to keep ordinary words out):
- The ids are every key and every space-free string value without a capital letter of the
  game's data files (`domain/<kind>/data/**/*.json`, `names.json` included; the data's ids are
  lowercase, a string with a capital is a name: "Zeus") and every option value of its glossary
  (`GET /kinds/{kind}/glossary`).
- An id with anything but lowercase letters in it (`traitera-4`, `reserve_2_feet_1_column`,
  `god.zeus`, `house-1`, `start_material`) is never an English word: it is matched exactly,
  case-sensitively, between word boundaries (`-` and `.` count as part of a word, so `house-1`
  does not match inside `greenhouse-12`). An id of three or more `_`-joined parts is also matched
  with spaces for underscores (`reserve 2 feet 1 column`: what a client makes of an id it
  "prettifies"), unless the game's own prose uses that phrase.
- An id made of digits only (Pergamon's tile dates: `210`) is not matched: counts, scores and
  event numbers are digits too, and a tile's date is what the tile shows.
- An id of lowercase letters only is matched (case-sensitively) only when the glossary names it
  with the same word capitalised differently (`surparit` is "Surparit", `gallia` "Gallia", `bsw`
  "BSW") and the game's own prose (the glossary's names, descriptions and rules) never uses it in
  lowercase: then a lowercase spelling on a page can only be the id. Ids that are ordinary words
  (`temple`, `movement`, `mask`, `war`, `secret`) are not matched: the prose uses them, or their
  name says more than the word ("God of War", "Secret until the end").
- Besides ids: `repr`-like text (`Name(field=`, `[[`, `{'`) and coordinate pairs such as `(12, 3)`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from tests.web.conftest import ROOT

DUMPS = [re.compile(r"\w+\(\w+="), re.compile(r"\[\["), re.compile(r"\{'"), re.compile(r"\(-?\d+, -?\d+\)")]

# Everything a person meets on the page: its text, the SVG's texts and tooltips, every tooltip,
# label for a screen reader and placeholder.
READ_PAGE = """() => {
  const parts = [document.body.innerText];
  for (const el of document.querySelectorAll("[title], [aria-label], [alt], [placeholder]")) {
    for (const a of ["title", "aria-label", "alt", "placeholder"]) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
  }
  for (const el of document.querySelectorAll("svg title, svg text, option")) parts.push(el.textContent);
  return parts.join("\\n");
}"""


def _data_strings(value: Any) -> set[str]:
    """Every key and every string value without a space or a capital in a JSON document."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= _data_strings(k) | _data_strings(v)
    elif isinstance(value, list):
        for v in value:
            found |= _data_strings(v)
    elif isinstance(value, str) and value and not any(c.isspace() or c.isupper() for c in value):
        found.add(value)
    return found


def _prose(glossary: dict) -> str:
    """The game's own words: every name, description, summary and rule, as one text."""
    texts = [glossary["name"], glossary["summary"]]
    for option in glossary["options"]:
        texts += [
            option["name"],
            option["description"],
            *(t for v in option["values"] for t in (v["name"], v["description"])),
        ]
    for group in glossary["groups"]:
        texts += [group["name"], *(t for term in group["terms"] for t in (term["name"], term["description"]))]
    texts += [p for section in glossary["rules"] for p in (section["heading"], *section["paragraphs"])]
    return "\n".join(texts)


def _exact(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(text)}(?![\w-]|\.\w)")


def id_patterns(server: str, kind: str) -> dict[str, re.Pattern[str]]:
    """The patterns of the ids of `kind` that must not appear on a page, by id (the rule above)."""
    glossary = httpx.get(f"{server}/kinds/{kind}/glossary").json()
    ids: set[str] = set()
    for path in sorted((ROOT / "domain" / kind / "data").rglob("*.json")):
        ids |= _data_strings(json.loads(Path(path).read_text(encoding="utf-8")))
    ids |= {v["id"] for option in glossary["options"] for v in option["values"]}
    prose = _prose(glossary)
    names: dict[str, set[str]] = {}
    for term in [t for g in glossary["groups"] for t in g["terms"]] + [
        v for o in glossary["options"] for v in o["values"]
    ]:
        names.setdefault(term["id"], set()).add(term["name"])
    patterns: dict[str, re.Pattern[str]] = {}
    for i in sorted(ids):
        if i.isdigit():
            continue
        if re.fullmatch(r"[a-z]+", i):
            proper = any(n.lower() == i and n != i for n in names.get(i, ()))
            if proper and not _exact(i).search(prose):
                patterns[i] = _exact(i)
            continue
        patterns[i] = _exact(i)
        spaced = i.replace("_", " ")
        if i.count("_") >= 2 and not _exact(spaced).search(prose):
            patterns[spaced] = _exact(spaced)
    return patterns


def findings(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    """What on this text is an id or a dump: each with a little of its context."""
    found = []
    for pattern in [*patterns.values(), *DUMPS]:
        for m in pattern.finditer(text):
            found.append(f"{m.group(0)!r} in …{text[max(0, m.start() - 40) : m.end() + 40]!r}…")
    return found


def assert_no_ids(page, server: str, kind: str) -> None:
    """The page as it is now (a game being played: its choices, their tooltips, the board's) shows
    no id of `kind` and no dump."""
    found = findings(page.evaluate(READ_PAGE), id_patterns(server, kind))
    assert not found, found


def scan_played_game(page, server: str, game: str, kind: str) -> None:
    """Open every page of the ended `game` in `page` (a browser holding a seat of it) and assert
    that none shows an id or a dump; the pages scanned must have drawn what they show first."""
    patterns = id_patterns(server, kind)
    assert len(patterns) > 5, patterns  # the scan scans something
    last = httpx.get(f"{server}/games/{game}").json()["version"]
    pages = {
        f"#/game/{game}": "[data-testid=end-screen] .breakdown",
        f"#/replay/{game}/{last}": None,
        f"#/replay/{game}/{max(1, last // 2)}": None,
        f"#/audit/{game}": "[data-testid=audit-verdict]",
        "#/": "section[aria-label='Your games']",
        f"#/rules/{kind}": "[data-testid=rules]",
    }
    found: dict[str, list[str]] = {}
    for n, (address, ready) in enumerate(pages.items()):
        page.goto(f"/?scan={n}{address}")  # a new document each time: nothing left of the page before
        if ready:
            page.wait_for_selector(ready)
        else:
            at = address.rsplit("/", 1)[1]
            page.wait_for_function(f"document.body.dataset.version === '{at}' && document.querySelector('p.event')")
        if address.startswith("#/game/"):
            page.wait_for_selector("[data-testid=log-entry]")
        found[address] = findings(page.evaluate(READ_PAGE), patterns)
    assert not any(found.values()), {a: f for a, f in found.items() if f}
