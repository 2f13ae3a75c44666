"""The architecture's import rules (pyproject.toml's [tool.importlinter] contracts) hold, would
catch a break, and cover every registered game: the domain and its read models are registered
apart (`domain.games`, `projections.registry`), the shell composes them by kind, and no game, no
kernel and no layer below reaches a game it should not."""

from __future__ import annotations

import importlib
import os
import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest
from importlinter.cli import lint_imports

from domain import games
from projections import registry

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
REGISTRIES = {"domain.games", "projections.registry"}


def _contracts() -> dict[str, dict]:
    config = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def _packages(kind: str) -> set[str]:
    return {f"domain.{kind}", f"projections.{kind}"}


def test_the_import_rules_hold():
    assert lint_imports(config_filename=str(CONFIG), no_cache=True, no_logo=True) == 0


def test_each_game_is_one_object_of_its_own_package_in_each_registry():
    assert set(registry.READ_MODELS) == set(games.GAMES)  # every hosted game has read models, and no other
    for kind, game in games.GAMES.items():
        assert importlib.import_module(f"domain.{kind}").GAME is game
        assert importlib.import_module(f"projections.{kind}").READ_MODELS is registry.read_models(kind)


def test_every_registered_game_is_kept_apart_from_the_shell_the_kernels_and_the_other_games():
    contracts = _contracts()
    for kind in games.kinds():
        others = set().union(*(_packages(k) for k in games.kinds() if k != kind))
        assert _packages(kind) <= set(contracts["no-game-by-name"]["forbidden_modules"])
        assert _packages(kind) <= set(contracts["kernel-knows-no-game"]["forbidden_modules"])
        assert f"domain.{kind}" in contracts["games-apart"]["modules"]
        own = contracts[f"read-models-of-{kind}"]
        assert own["source_modules"] == [f"projections.{kind}"] and others <= set(own["forbidden_modules"])


def test_every_module_of_the_core_outside_the_games_and_registries_is_a_kernel_that_imports_no_game():
    games_ = set().union(*(_packages(k) for k in games.kinds()))
    # a game package under construction (not registered yet) is declared as one in games-apart
    games_ |= set(_contracts()["games-apart"]["modules"])
    modules = set()
    for top in ("domain", "projections"):
        for path in (ROOT / top).iterdir():
            name = f"{top}.{path.stem if path.is_file() else path.name}"
            if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists():
                modules.add(name)
    kernels = modules - games_ - REGISTRIES
    assert kernels == set(_contracts()["kernel-knows-no-game"]["source_modules"])


def test_every_package_of_the_shell_has_a_place_in_the_layers():
    layered = {name.strip() for layer in _contracts()["layers"]["layers"] for name in layer.split("|")}
    packages = {
        f"service.{p.stem if p.is_file() else p.name}"
        for p in (ROOT / "service").iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")
    }
    assert packages == layered


def test_every_module_of_the_write_path_has_a_place_in_its_layers():
    layered = {name.strip() for layer in _contracts()["write-no-circle"]["layers"] for name in layer.split("|")}
    modules = {p.stem for p in (ROOT / "service" / "write").glob("*.py") if p.stem != "__init__"}
    assert modules == layered


def test_every_package_of_the_shell_says_what_it_owns_and_may_import():
    for init in sorted((ROOT / "service").glob("*/__init__.py")):
        doc = init.read_text().lstrip()
        assert doc.startswith('"""') and "import" in doc.split('"""')[1].lower(), f"{init} needs its docstring"


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("service/store/codec.py", "import service.http.app", "layers"),
        ("service/write/meta.py", "import service.ai.scheduler", "layers"),
        ("service/ai/scheduler.py", "import service.audit.checks", "layers"),
        ("service/read/models.py", "import service.write.meta", "read-models"),
        ("service/write/submit.py", "from service.write.facade import GameService", "write-no-circle"),
        ("service/write/meta.py", "import service.write.service", "write-no-circle"),
        ("service/write/meta.py", "from domain.pantheon import PANTHEON", "no-game-by-name"),
        ("projections/base.py", "import service.config", "core"),
        ("domain/games.py", "import projections.registry", "domain-inward"),
        ("domain/kernel.py", "import domain.games", "kernel-knows-no-game"),
        ("projections/summary.py", "import projections.registry", "kernel-knows-no-game"),
        ("domain/pergamon/rules.py", "import domain.pantheon.rules", "games-apart"),
        ("projections/pantheon/score.py", "import domain.pergamon.events", "read-models-of-pantheon"),
    ],
    ids=[
        "store-imports-http",
        "write-imports-ai",
        "siblings",
        "read-imports-write",
        "write-function-imports-the-facade",
        "write-helper-imports-games",
        "game-by-name",
        "core",
        "domain-imports-projections",
        "kernel-imports-the-registry",
        "read-model-kernel-imports-the-registry",
        "game-imports-game",
        "read-models-import-another-game",
    ],
)
def test_an_import_against_the_rules_is_caught(tmp_path, module, line, contract):
    for package in ("service", "domain", "projections"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(CONFIG, tmp_path / "pyproject.toml")
    with open(tmp_path / module, "a", encoding="utf-8") as f:
        f.write(f"\n{line}  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run(
        [lint, "--no-cache", "--contract", contract], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and "BROKEN" in done.stdout, done.stdout + done.stderr
