"""A second generator: openapi-typescript (pinned in tests/contract/ts/package-lock.json) turns the
committed document into TypeScript types, and a small client using them type-checks with `tsc --strict`;
a command that carries a `seat` does not."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "ts"
NPM = shutil.which("npm")
pytestmark = pytest.mark.skipif(NPM is None, reason="npm is not installed (Node.js is needed for the TypeScript check)")


def _run(*args: str, cwd: Path = HERE) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def types() -> Path:
    # pytest-xdist's workers share this folder: one at a time installs and generates (an `npm ci` while
    # another worker's npx runs removes its packages under it)
    with open(HERE / ".npm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (
            not (HERE / "node_modules" / "typescript").exists()
            or not (HERE / "node_modules" / "openapi-typescript").exists()
        ):
            installed = _run(NPM, "ci", "--no-audit", "--no-fund")
            assert installed.returncode == 0, installed.stdout + installed.stderr
        made = _run("npx", "--no-install", "openapi-typescript", "../../../openapi/openapi.json", "-o", "api.d.ts")
        assert made.returncode == 0, made.stdout + made.stderr
    return HERE / "api.d.ts"


def _tsc(*files: str) -> subprocess.CompletedProcess:
    return _run(
        "npx",
        "--no-install",
        "tsc",
        "--noEmit",
        "--strict",
        "--noUncheckedIndexedAccess",
        "--target",
        "ES2022",
        "--module",
        "ES2022",
        "--moduleResolution",
        "bundler",
        *files,
    )


def test_the_generated_types_and_a_client_using_them_compile_strictly(types):
    text = types.read_text()
    assert "PantheonMove" in text and "PantheonEventMoved" in text
    checked = _tsc("client.ts", "api.d.ts")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_command_with_a_seat_does_not_type_check(types, tmp_path):
    bad = HERE / "bad_seat.ts"
    bad.write_text(
        'import type { components } from "./api";\n'
        'export const pass: components["schemas"]["PantheonPass"] = { type: "pass", seat: 0 };\n'
    )
    try:
        checked = _tsc("bad_seat.ts", "api.d.ts")
    finally:
        bad.unlink()
    assert checked.returncode != 0 and "seat" in checked.stdout, checked.stdout + checked.stderr
