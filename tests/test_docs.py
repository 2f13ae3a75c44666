"""The README and docs/ stay true to the code: every relative link (and `#anchor`) resolves; every
`pantheon` command of a shell block is one the CLI's parser accepts (parsed, never run), and every
`pantheon …` code span names a subcommand and options it has; every `python -m` module shown
exists and takes the flags shown; every repository path named in a code span exists. Blocks
fenced as `text` are pictures, not commands."""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import io
import pathlib
import re
import runpy
import shlex
import sys

import pytest
from markdown_it import MarkdownIt

from service.cli.commands import parser as cli_parser

parser = functools.cache(cli_parser)  # built once: parsing never changes it
ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCKS = {"", "bash", "sh", "shell", "console"}
OPERATORS = {"&&", "||", ";", "|", "&", ">", ">>", "<", "(", ")"}
REPO_PATH = re.compile(r"(?:domain|service|projections|tests|deploy|openapi|scripts|examples|docs|\.ci)/[\w./*-]*")
MODULE = re.compile(r"(?:^|[\s/])python3?\s+-m\s")
PANTHEON = re.compile(r"(?:^|[\s/])pantheon(?=\s|$)")


@functools.cache  # a page is read once per run, however many links lead to it
def _tokens(page: pathlib.Path) -> list:
    return MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))


def _text(inline) -> str:
    return "".join(c.content for c in inline.children or () if c.type in ("text", "code_inline"))


def _anchors(page: pathlib.Path) -> set[str]:
    """The anchors GitHub gives the page's headings (lower case, punctuation dropped, spaces to
    hyphens, a repeated one numbered): github-slugger's rule, which no installed package offers."""
    counts: dict[str, int] = {}
    anchors = set()
    tokens = _tokens(page)
    for opening, inline in zip(tokens, tokens[1:]):
        if opening.type == "heading_open":
            slug = re.sub(r"[^\w\- ]", "", _text(inline).strip().lower()).replace(" ", "-")
            anchors.add(f"{slug}-{counts[slug]}" if slug in counts else slug)
            counts[slug] = counts.get(slug, 0) + 1
    return anchors


def _inline_children(page: pathlib.Path):
    for token in _tokens(page):
        if token.type == "inline":
            yield from token.children or ()


def _links(page: pathlib.Path) -> list[str]:
    return [
        c.attrs.get("href") or c.attrs.get("src") for c in _inline_children(page) if c.type in ("link_open", "image")
    ]


def _code_spans(page: pathlib.Path) -> list[str]:
    return [c.content for c in _inline_children(page) if c.type == "code_inline"]


def _shell_lines(page: pathlib.Path) -> list[str]:
    """The lines of the page's shell blocks, continuation lines joined."""
    blocks = [t.content for t in _tokens(page) if t.type == "fence" and t.info.strip() in SHELL_BLOCKS]
    return [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]


def _commands(line: str) -> list[list[str]]:
    """The words of every simple command on a shell line (after its VAR=value assignments)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.commenters, lexer.whitespace_split = "#", True
    commands, words = [], []
    for token in [*lexer, ";"]:
        if token in OPERATORS:
            commands.append(words)
            words = []
        elif words or not re.fullmatch(r"\w+=.*", token):
            words.append(token)
    return [c for c in commands if c]


def _pantheon_commands(page: pathlib.Path) -> list[tuple[str, bool]]:
    """(the arguments after `pantheon`, whether to read them as a synopsis) of every command shown:
    in shell blocks (parsed whole), and in code spans that start with `pantheon ` (a span names a
    command or an option of it, often with placeholders: `pantheon audit --game ID`)."""
    shown = [
        (" ".join(map(shlex.quote, words[1:])), False)
        for line in _shell_lines(page)
        if PANTHEON.search(line)
        for words in _commands(line)
        if pathlib.PurePath(words[0]).name == "pantheon"
    ]
    spans = [s.split(None, 1)[1] for s in _code_spans(page) if re.match(r"(?:\.venv/bin/)?pantheon\s+\S", s)]
    return shown + [(arguments, True) for arguments in spans]


def _subparser(words: list[str]) -> tuple[argparse.ArgumentParser, list[str]]:
    """The parser of the (sub)command that `words` start with, and the words left after its name.
    argparse has no public way to reach a subparser: its `_actions` are the way (long stable)."""
    current = parser()
    while words:
        actions = [a for a in current._actions if isinstance(a, argparse._SubParsersAction)]
        if not actions or words[0] not in actions[0].choices:
            break
        current, words = actions[0].choices[words[0]], words[1:]
    return current, words


def _refusal(arguments: str, synopsis: bool) -> str | None:
    """Why the CLI would refuse `pantheon <arguments>` (None: it accepts them)."""
    if synopsis:  # `pantheon ladder --games N [--jobs J]`: the command exists and knows every option
        words = [w for w in re.sub(r"[\[\](){}]", " ", arguments).split() if not w.startswith("<")]
        sub, rest = _subparser(words)
        if sub.prog == "pantheon" and words and not words[0].startswith("-"):
            return f"no subcommand {words[0]!r}"
        known = {o for a in sub._actions for o in a.option_strings}
        unknown = [w.split("=")[0] for w in rest if w.startswith("-") and w.split("=")[0] not in known]
        return f"unknown options {unknown} of {sub.prog!r}" if unknown else None
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            parser().parse_args(shlex.split(arguments))
    except SystemExit as stop:
        return None if stop.code == 0 else errors.getvalue().strip().splitlines()[-1]
    return None


def _modules(page: pathlib.Path) -> list[tuple[str, str]]:
    """(module, its arguments) of every `python -m` shown in a shell block or a code span."""
    lines = [line for line in [*_shell_lines(page), *_code_spans(page)] if MODULE.search(line)]
    runs = [
        words
        for line in lines
        for words in _commands(line)
        if re.fullmatch(r"python3?", pathlib.PurePath(words[0]).name) and words[1:2] == ["-m"]
    ]
    return [(words[2], " ".join(map(shlex.quote, words[3:]))) for words in runs if len(words) > 2]


class _Parsed(Exception):
    """Raised by the patched parse_args: the module's flags were read, and nothing more may run."""


def _module_refusal(module: str, arguments: str, monkeypatch) -> str | None:
    """Why `python -m module arguments` would be refused: no such module, or a flag its own
    argparse parser does not accept (the module runs up to its parse_args call, not beyond)."""
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # a parent package is missing
        spec = None
    if spec is None:
        return "no such module"
    origin = pathlib.Path(spec.origin or "")
    if not arguments or ROOT not in origin.parents or "ArgumentParser" not in origin.read_text():
        return None  # its flags are read only where it is ours and parses them with argparse
    parse = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        parse(self, args, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(sys, "argv", [module, *shlex.split(arguments)])
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            runpy.run_module(module, run_name="__main__", alter_sys=True)
    except _Parsed:
        return None
    except SystemExit as stop:
        return None if stop.code == 0 else errors.getvalue().strip().splitlines()[-1]
    finally:
        monkeypatch.undo()
    return "it ran without parsing its arguments"


def _broken_links(page: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """The page's relative links to no file of the repository, or to no heading of a page."""
    broken = []
    for link in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", link):
            continue  # another site: not fetched
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if (
            not target.exists()
            or root not in target.parents
            or anchor
            and target.suffix == ".md"
            and anchor not in _anchors(target)
        ):
            broken.append(link)
    return broken


def _missing_paths(page: pathlib.Path) -> list[str]:
    """Repository paths named in the page's code spans that match no file (ignored ones aside)."""
    ignored = set((ROOT / ".gitignore").read_text().split())
    return [
        span
        for span in _code_spans(page)
        if REPO_PATH.fullmatch(span) and span not in ignored and not any(ROOT.glob(span.rstrip("/")))
    ]


def _page_ids():
    return [str(p.relative_to(ROOT)) for p in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=_page_ids())
def test_every_relative_link_and_anchor_resolves(page):
    assert _broken_links(page) == []


@pytest.mark.parametrize("page", PAGES, ids=_page_ids())
def test_every_pantheon_command_shown_is_accepted_by_the_cli(page):
    refused = {f"pantheon {a}": why for a, synopsis in _pantheon_commands(page) if (why := _refusal(a, synopsis))}
    assert refused == {}


@pytest.mark.parametrize("page", PAGES, ids=_page_ids())
def test_every_python_module_shown_exists_and_takes_its_flags(page, monkeypatch):
    refused = {
        f"python -m {m} {a}".strip(): why for m, a in _modules(page) if (why := _module_refusal(m, a, monkeypatch))
    }
    assert refused == {}


@pytest.mark.parametrize("page", PAGES, ids=_page_ids())
def test_every_repository_path_named_in_code_exists(page):
    assert _missing_paths(page) == []


def test_the_checks_catch_a_broken_link_an_unknown_flag_and_a_missing_module(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n[there](#a-page) [nowhere](#no-such-heading) [gone](missing.md)\n\n"
        "```bash\nREDIS_URL=redis://x .venv/bin/pantheon serve --port 8080 --no-such-flag\n"
        "pantheon simulate --games 3 && pantheon projections rebuild --concurrency 2\n"
        ".venv/bin/python -m bench.bench_engine --games 3 --no-such-flag\n"
        "python -m no_such_module.anywhere\n```\n"
        "`pantheon ladder --games N --bots A,B [--jobs J] [--no-such-option X]` `pantheon serve`\n"
        "`service/no_such_file.py` `service/cli/commands.py`\n",
        encoding="utf-8",
    )
    assert _broken_links(page, root=tmp_path) == ["#no-such-heading", "missing.md"]
    refused = [a for a, synopsis in _pantheon_commands(page) if _refusal(a, synopsis)]
    assert refused == [
        "serve --port 8080 --no-such-flag",
        "ladder --games N --bots A,B [--jobs J] [--no-such-option X]",
    ]
    modules = {m: _module_refusal(m, a, monkeypatch) for m, a in _modules(page)}
    assert modules["no_such_module.anywhere"] == "no such module"
    assert "--no-such-flag" in modules["bench.bench_engine"]
    assert _missing_paths(page) == ["service/no_such_file.py"]
