"""The architecture's import rules (pyproject.toml's [tool.importlinter] contracts) hold, would
catch a break, and cover every registered game."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest
from importlinter.cli import lint_imports

from domain import games

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_the_import_rules_hold():
    assert lint_imports(config_filename=str(CONFIG), no_cache=True, no_logo=True) == 0


def test_every_registered_game_is_a_package_the_shell_may_not_import():
    forbidden = set(_contracts()["no-game-by-name"]["forbidden_modules"])
    for game in games.GAMES.values():
        package = game.decider.decide.__module__.rsplit(".", 1)[0]
        assert package == f"domain.{game.kind}" and package in forbidden
        assert f"projections.{game.kind}" in forbidden


def test_every_package_of_the_shell_has_a_place_in_the_layers():
    layered = {name.strip() for layer in _contracts()["layers"]["layers"] for name in layer.split("|")}
    packages = {f"service.{p.stem if p.is_file() else p.name}" for p in (ROOT / "service").iterdir()
                if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")}
    assert packages == layered


def test_every_package_of_the_shell_says_what_it_owns_and_may_import():
    for init in sorted((ROOT / "service").glob("*/__init__.py")):
        doc = init.read_text().lstrip()
        assert doc.startswith('"""') and "import" in doc.split('"""')[1].lower(), f"{init} needs its docstring"


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("service/store/codec.py", "import service.http.app", "layers"),
    ("service/write/meta.py", "import service.ai.scheduler", "layers"),
    ("service/ai/scheduler.py", "import service.audit.checks", "layers"),
    ("service/read/models.py", "import service.write.meta", "read-models"),
    ("service/write/meta.py", "from domain.pantheon import PANTHEON", "no-game-by-name"),
    ("projections/base.py", "import service.config", "core"),
], ids=["store-imports-http", "write-imports-ai", "siblings", "read-imports-write", "game-by-name", "core"])
def test_an_import_against_the_rules_is_caught(tmp_path, module, line, contract):
    for package in ("service", "domain", "projections"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(CONFIG, tmp_path / "pyproject.toml")
    with open(tmp_path / module, "a", encoding="utf-8") as f:
        f.write(f"\n{line}  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run([lint, "--no-cache", "--contract", contract], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "BROKEN" in done.stdout, done.stdout + done.stderr
