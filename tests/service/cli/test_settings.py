"""One table of settings: every environment variable the code reads is in it and in the help, each
role takes its settings as flags, and a flag wins over the environment."""

from __future__ import annotations

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
ROLES = {"serve": ["serve"], "api": ["api"], "projector": ["projector"], "worker": ["worker"],
         "alive": ["alive"], "rebuild": ["projections", "rebuild"], "export": ["export"], "import": ["import"],
         "audit": ["audit"]}


def _help(*words: str) -> str:
    return subprocess.run([sys.executable, "-m", "service.cli", *words, "--help"], cwd=ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, "COLUMNS": "200"}).stdout


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
    # the table reads it (Setting.read), the CLI writes the flags into it, `serve` hands it to its children
    assert mentions == ["service/cli/commands.py", "service/cli/roles.py", "service/config.py"]


def test_every_variable_the_code_names_is_in_the_table_and_in_the_help():
    table = {s.env for s in SETTINGS}
    top = _help()
    assert _variables_named_in_the_code() <= table
    assert len(table) == len(SETTINGS) and len({s.name for s in SETTINGS}) == len(SETTINGS)
    for s in SETTINGS:
        assert s.env in top and s.help.split()[0] in top, s.env
        assert (s.option in top) == s.flag, s.option


def test_the_readme_lists_every_setting_with_its_flag():
    readme = (ROOT / "README.md").read_text()
    for s in SETTINGS:
        assert f"`{s.env}`" in readme and (not s.flag or f"`{s.option}`" in readme), s.env


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
    apply_flags(parser().parse_args(["api", "--port", "9002", "--cors-origins", "https://a.example,https://b.example"]),
                environ)
    assert environ == {"PANTHEON_PORT": "9002", "PANTHEON_PREFIX": "from-env",
                       "PANTHEON_CORS_ORIGINS": "https://a.example,https://b.example"}
    settings = Settings(**{f: s.read(environ) for f, s in (("port", _by("port")), ("prefix", _by("prefix")),
                                                             ("cors_origins", _by("cors_origins")))})
    assert settings.port == 9002 and settings.prefix == "from-env"
    assert settings.cors_origins == ("https://a.example", "https://b.example")


def test_a_malformed_flag_is_refused_before_anything_starts(capsys):
    with pytest.raises(SystemExit) as stopped:
        parser().parse_args(["api", "--port", "eighty"])
    assert stopped.value.code == 2 and "--port" in capsys.readouterr().err


def _by(name: str):
    return next(s for s in SETTINGS if s.name == name)


def test_pantheon_api_listens_on_the_port_of_its_flag_and_logs_each_request_id(redis_url, prefix, tmp_path):
    flagged, ignored = free_port(), free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PANTHEON_PORT=str(ignored), PANTHEON_PREFIX="not-this",
               **RELAXED_ENV)
    log = tmp_path / "api.log"
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "api", "--port", str(flagged),
                                    "--prefix", prefix, "--partitions", "4"], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
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
        made = httpx.post(f"{base}/games", json={"seats": [{"type": "human"}] * 2}, headers={"X-Request-ID": "flagged-1"})
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
