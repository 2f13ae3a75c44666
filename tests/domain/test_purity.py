"""The core stays pure: domain/ and projections/ import no shell, I/O library, clock or global randomness."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "service",
    "redis",
    "rq",
    "litestar",
    "time",
    "datetime",
    "socket",
    "urllib",
    "logging",
    "asyncio",
    "threading",
    "subprocess",
    "secrets",
    "uuid",
}
GLOBAL_RANDOM = {"random", "choice", "choices", "randint", "randrange", "shuffle", "sample", "uniform", "seed"}


def _modules():
    for package in ("domain", "projections"):
        yield from sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", list(_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_modules_import_nothing_impure(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        assert not {n.split(".")[0] for n in names} & FORBIDDEN, f"{path.name} imports {names}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr not in GLOBAL_RANDOM, f"{path.name} uses the global random.{node.attr}"


def test_the_purity_check_would_catch_an_impure_import(tmp_path):
    bad = ast.parse("import redis\nfrom service.cli import main\nrandom.shuffle(x)\n")
    imported = {
        n.names[0].name if isinstance(n, ast.Import) else n.module
        for n in ast.walk(bad)
        if isinstance(n, (ast.Import, ast.ImportFrom))
    }
    assert {m.split(".")[0] for m in imported} & FORBIDDEN == {"redis", "service"}
