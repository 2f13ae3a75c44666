"""One table of settings: every environment variable the code reads is in it and in the help, each
role takes its settings as flags, and a flag wins over the environment."""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from service.cli.commands import apply_flags, parser
from service.config import SETTINGS, Settings
from service.store.connection import connect_sync

from ..live import RELAXED_ENV, free_port

ROOT = Path(__file__).resolve().parents[3]
SERVICE = ROOT / "service"
ROLES = {
    "serve": ["serve"],
    "api": ["api"],
    "projector": ["projector"],
    "worker": ["worker"],
    "alive": ["alive"],
    "rebuild": ["projections", "rebuild"],
    "export": ["export"],
    "import": ["import"],
    "audit": ["audit"],
}


def _help(*words: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *words, "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout


def _variables_named_in_the_code() -> set[str]:
    names = set()
    for path in SERVICE.rglob("*.py"):
        names |= set(re.findall(r"""["'](PANTHEON_[A-Z0-9_]+|REDIS_URL)["']""", path.read_text()))
    return names


def test_the_environment_is_read_only_through_the_settings_table():
    sources = {str(path.relative_to(ROOT)): path.read_text() for path in SERVICE.rglob("*.py")}
    by_name = [f for f, text in sources.items() if re.search(r"getenv\(|environ\.get\(|environ\[\s*[\"']", text)]
    mentions = sorted(f for f, text in sources.items() if "os.environ" in text)
    assert by_name == []  # no variable is read by its name outside the table
    # the table reads it (Setting.read); the CLI reads the settings from it once, with its flags over it
    assert mentions == ["service/cli/commands.py", "service/config.py"]


def test_every_variable_the_code_names_is_in_the_table_and_in_the_help():
    table = {s.env for s in SETTINGS}
    top = _help()
    assert _variables_named_in_the_code() <= table
    assert len(table) == len(SETTINGS) and len({s.name for s in SETTINGS}) == len(SETTINGS)
    for s in SETTINGS:
        assert s.env in top and s.help.split()[0] in top, s.env
        assert (s.option in top) == s.flag, s.option


def test_the_operations_page_lists_every_setting_with_its_flag():
    page = (ROOT / "docs" / "operations.md").read_text()
    for s in SETTINGS:
        assert f"`{s.env}`" in page and (not s.flag or f"`{s.option}`" in page), s.env


@pytest.mark.parametrize("role", sorted(ROLES))
def test_each_role_documents_its_settings_as_flags_with_their_variable_and_default(role):
    text = " ".join(_help(*ROLES[role]).split())
    mine = [s for s in SETTINGS if role in s.roles]
    assert mine, role
    for s in mine:
        assert s.env in text, (role, s.env)
        if s.flag:
            assert s.option in text and f"default: {s.default_text() or 'unset'}" in text, (role, s.option)


def test_a_flag_wins_over_the_environment_and_an_unset_one_leaves_it():
    environ = {"PANTHEON_PORT": "8001", "PANTHEON_PREFIX": "from-env"}
    given = dict(environ)
    read = apply_flags(
        parser().parse_args(["api", "--port", "9002", "--cors-origins", "https://a.example,https://b.example"]), environ
    )
    assert read == {
        "PANTHEON_PORT": "9002",
        "PANTHEON_PREFIX": "from-env",
        "PANTHEON_CORS_ORIGINS": "https://a.example,https://b.example",
    }
    assert environ == given  # the flags are not written into the environment
    settings = Settings.from_environ(read)
    assert settings.port == 9002 and settings.prefix == "from-env"
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.redis_timeout_s == _by("redis_timeout_s").read({})  # and every other one from the table


def test_every_setting_of_the_table_reaches_the_settings_a_role_is_given():
    quotas = {"limit_create", "limit_commands", "limit_ai_games", "limit_streams", "trusted_proxies"}
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert {s.name for s in SETTINGS} - quotas <= fields
    environ = {"PANTHEON_AI_LEASE_S": "7", "PANTHEON_WAIT_REPLICAS": "2", "PANTHEON_LIMIT_AI_GAMES": "9"}
    settings = Settings.from_environ(environ)
    assert (settings.ai_lease_s, settings.wait_replicas, settings.quotas.ai_games) == (7.0, 2, 9)


def test_the_command_line_builds_the_settings_once_and_leaves_the_environment_alone(monkeypatch):
    from service.cli import commands

    given: list = []
    parsed = commands.parser()
    [roles] = parsed._subparsers._group_actions
    roles.choices["api"].set_defaults(func=lambda args: given.append((args.settings, args.environ)) or 0)
    monkeypatch.setattr(commands, "parser", lambda: parsed)
    monkeypatch.delenv("PANTHEON_PORT", raising=False)
    monkeypatch.setenv("PANTHEON_PREFIX", "from-env")
    before = dict(os.environ)
    assert commands.main(["api", "--port", "9003"]) == 0
    assert dict(os.environ) == before  # no flag was written into it
    [(settings, environ)] = given
    assert (settings.port, settings.prefix) == (9003, "from-env")
    assert environ["PANTHEON_PORT"] == "9003"  # what `serve` hands to the processes it starts


def _read_at_import(tree: ast.Module) -> list[str]:
    """What a module reads of the environment (or of the settings, which come from it) while it is
    imported: in its top-level statements and class bodies, and in functions' defaults and
    decorators, which run then too (not in function bodies, which run when called)."""
    found: list[str] = []

    def scan(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Name, ast.Attribute)) and (getattr(sub, "id", None) or sub.attr) in _ENV:
                found.append(f"{sub.lineno}: {ast.unparse(sub)}")
            if isinstance(sub, ast.Call):
                name = sub.func.id if isinstance(sub.func, ast.Name) else getattr(sub.func, "attr", "")
                if name in _SETTINGS_READS:
                    found.append(f"{sub.lineno}: {ast.unparse(sub)}")

    def at_import(statements: list[ast.stmt]) -> None:
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for part in (*statement.decorator_list, *statement.args.defaults, *statement.args.kw_defaults):
                    if part is not None:
                        scan(part)
            elif isinstance(statement, ast.ClassDef):
                for part in (*statement.decorator_list, *statement.bases):
                    scan(part)
                at_import(statement.body)
            else:
                scan(statement)

    at_import(tree.body)
    return found


_ENV = {"environ", "getenv", "environb"}
_SETTINGS_READS = {"value", "read", "Settings", "QuotaSettings", "from_environ"}


def test_no_module_reads_the_environment_when_imported_outside_the_settings():
    found = {
        str(path.relative_to(ROOT)): reads
        for path in sorted(SERVICE.rglob("*.py"))
        if path.name != "config.py" or path.parent != SERVICE
        if (reads := _read_at_import(ast.parse(path.read_text())))
    }
    assert found == {}


def test_the_scan_would_catch_a_read_at_import():
    caught = ast.parse(
        "import os\n"
        "LEASE_S = value('ai_lease_s')\n"
        "def connect(timeout=Settings().redis_timeout_s):\n"
        "    return os.environ['PANTHEON_X']  # when called: not at import\n"
        "class Pool:\n"
        "    size = int(os.environ.get('PANTHEON_REDIS_POOL', 64))\n"
    )
    assert [line.split(":")[0] for line in _read_at_import(caught)] == ["2", "3", "6"]


def test_a_malformed_flag_is_refused_before_anything_starts(capsys):
    with pytest.raises(SystemExit) as stopped:
        parser().parse_args(["api", "--port", "eighty"])
    assert stopped.value.code == 2 and "--port" in capsys.readouterr().err


def _by(name: str):
    return next(s for s in SETTINGS if s.name == name)


def test_pantheon_api_listens_on_the_port_of_its_flag_and_logs_each_request_id(redis_url, prefix, tmp_path):
    flagged, ignored = free_port(), free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PANTHEON_PORT=str(ignored), PANTHEON_PREFIX="not-this", **RELAXED_ENV)
    log = tmp_path / "api.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli",
                "api",
                "--port",
                str(flagged),
                "--prefix",
                prefix,
                "--partitions",
                "4",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{flagged}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        made = httpx.post(
            f"{base}/games", json={"seats": [{"type": "human"}] * 2}, headers={"X-Request-ID": "flagged-1"}
        )
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{ignored}/health/live", timeout=1)
        missing = httpx.get(f"{base}/games/0123456789abcdef", headers={"X-Request-ID": "flagged-2"})
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert made.status_code == 201 and made.headers["x-request-id"] == "flagged-1"
    assert missing.json()["request_id"] == "flagged-2"

    stored = connect_sync(redis_url)
    assert any(stored.scan_iter(match=f"*{prefix}*game:{made.json()['game']}:meta"))  # the flag's prefix
    stored.close()
    lines = log.read_text().splitlines()
    assert any('"POST /games" 201 request_id=flagged-1' in line for line in lines), lines
    assert any('"GET /games/0123456789abcdef" 404 request_id=flagged-2' in line for line in lines), lines


@pytest.mark.parametrize(
    ("variable", "given", "said"),
    [
        ("PANTHEON_WAIT_REPLICAS", "auto", "`auto` is no longer a value"),
        ("REDIS_URL", "redis+sentinel://127.0.0.1:26379/mymaster/0", "Redis Sentinel is not supported"),
        ("PANTHEON_QUEUE_URL", "sentinel://127.0.0.1:26379", "Redis Sentinel is not supported"),
    ],
)
def test_a_setting_that_cannot_be_read_stops_the_role_at_once_with_a_sentence(variable, given, said):
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0", variable: given}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "api"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0 and time.monotonic() - started < 30
    assert f"pantheon api: {variable}={given!r} is not valid: {said}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
