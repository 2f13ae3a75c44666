"""The suite's own script keeps its promises: `.ci/run` is exactly `scripts/test`, every pass is timed
(the budget is 12 minutes, and the log says where the time went), and the second and third passes
name only test files that exist, so a renamed file cannot silently drop out of them."""

from __future__ import annotations

import pathlib
import re
import shlex
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "test"


def _passes() -> list[str]:
    """The lines of scripts/test that run pytest (directly or through `some`), outside the helpers."""
    body = SCRIPT.read_text().split('\ntimed "install"', 1)[1]
    return [line.strip() for line in body.splitlines() if re.search(r"\b(some|pytest)\b -", line)]


def _arrays() -> dict[str, list[str]]:
    found = re.findall(r"^\s*(on_\w+)=\(\n(.*?)\n\s*\)", SCRIPT.read_text(), flags=re.M | re.S)
    return {name: shlex.split(body) for name, body in found}


def test_ci_runs_exactly_the_readme_test_command():
    assert (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1] == "exec bash scripts/test"
    assert "bash scripts/test" in (ROOT / "README.md").read_text()


def test_every_pass_of_the_suite_is_timed_and_the_whole_too():
    passes = _passes()
    assert len(passes) >= 6, passes  # 1a, 1b, 2a, 2b, 3a, 3b
    assert all(line.startswith("timed ") for line in passes), [p for p in passes if not p.startswith("timed ")]
    assert re.search(r'^echo "=== the whole suite: \$\(\(SECONDS - started\)\) s', SCRIPT.read_text(), flags=re.M)


def test_the_passes_on_other_redis_servers_name_only_files_that_exist():
    arrays = _arrays()
    assert set(arrays) == {"on_redis", "on_cluster", "on_own_servers"}
    for name, paths in arrays.items():
        missing = [p for p in paths if not (ROOT / p).exists()]
        assert paths and not missing, (name, missing)


def test_the_script_is_valid_bash():
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True).returncode == 0
