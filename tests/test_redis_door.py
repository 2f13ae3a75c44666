"""Redis has one door: `service/store`. Nothing else in `service/`, nor `projections/` or `domain/`,
imports redis, holds a Redis client, registers a script, opens a pipeline, sends a Redis command or
spells a key; and every key the store's adapters define is in docs/redis.md's table, as they
define it. The scan is shown to catch each kind of breach on a small offending snippet."""

from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass

import pytest
import redis

from service.store.keys import KEYS, Key

ROOT = pathlib.Path(__file__).resolve().parents[1]
STORE = ROOT / "service" / "store"
SCANNED = [ROOT / "service", ROOT / "projections", ROOT / "domain"]

# redis-py's command methods (and its client plumbing): called on anything that names a Redis client
# or a pipeline, any of them is a Redis command sent from outside the door
COMMANDS = frozenset(n for n in dir(redis.Redis) if not n.startswith("_") and callable(getattr(redis.Redis, n)))
# ... and those no other Python object in the code base is likely to have: a breach on any receiver
COMMON = frozenset({"append", "close", "copy", "delete", "exists", "get", "set", "keys", "type", "time", "info"})
COMMON |= {"lock", "move", "object", "sort", "reset", "select", "sync", "wait", "watch", "save", "scan", "rename"}
COMMON |= {"restore", "dump", "echo", "command", "client", "json", "ft", "ts", "bf", "cf", "cms", "topk", "tdigest"}
COMMON |= {"from_url", "from_pool", "quit", "role", "ping", "digest", "publish", "transaction", "failover"}
COMMON |= {"incr", "decr", "monitor", "pubsub", "shutdown", "touch", "unlink", "hello", "auth", "migrate", "vset"}
DISTINCTIVE = COMMANDS - COMMON
ALWAYS = frozenset({"register_script", "pipeline", "eval", "evalsha", "execute_command"})
CLIENT_NAMES = re.compile(r"redis|pipe", re.IGNORECASE)


def _key_words(keys: tuple[Key, ...]) -> re.Pattern[str]:
    """A string that spells a key: one of the keys' first words after the prefix or hash tag
    (`:lobby`, `:game:` …), ending the string or followed by `:`."""
    words = sorted({key.first_word for key in keys})
    return re.compile(r":(?:" + "|".join(map(re.escape, words)) + r")(?::|$)")


KEY_WORDS = _key_words(KEYS)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _dotted(node: ast.expr) -> str:
    """The receiver as written, names and attributes only (`service.store.redis`)."""
    parts = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            break
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Await):
            node = node.value
        else:
            break
    return ".".join(reversed(parts))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def scan_source(source: str, path: str = "<snippet>") -> list[Finding]:
    """Every breach of the door in one module's source."""
    tree = ast.parse(source)
    docstrings, found = _docstrings(tree), []

    def finding(node: ast.AST, what: str) -> None:
        found.append(Finding(path, getattr(node, "lineno", 0), what))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "redis" or alias.name.startswith("redis."):
                    finding(node, f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "redis" or node.module.startswith("redis."):
                finding(node, f"imports from {node.module}")
        elif isinstance(node, ast.Attribute) and node.attr in ("redis", "queue_redis"):
            finding(node, f"reaches a Redis client ({_dotted(node)})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, _dotted(node.func.value)
            if method in ALWAYS:
                finding(node, f"calls {method} ({receiver}.{method})")
            elif method in DISTINCTIVE or (method in COMMANDS and CLIENT_NAMES.search(receiver)):
                finding(node, f"sends a Redis command ({receiver}.{method})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:  # noqa: SIM102 - two conditions told apart
            if KEY_WORDS.search(node.value):
                finding(node, f"spells a key ({node.value!r})")
    return found


def _modules() -> list[pathlib.Path]:
    paths = sorted(p for root in SCANNED for p in root.rglob("*.py"))
    return [p for p in paths if STORE not in p.parents and ".venv" not in p.parts]


def scan() -> list[Finding]:
    return [f for p in _modules() for f in scan_source(p.read_text(), str(p.relative_to(ROOT)))]


def test_nothing_outside_the_store_touches_redis():
    findings = scan()
    assert not findings, "Redis is reached outside service/store:\n" + "\n".join(map(str, findings))


def test_the_scan_covers_the_service_projections_and_domain():
    scanned = {p.relative_to(ROOT).parts[0] for p in _modules()}
    assert scanned == {"service", "projections", "domain"}
    assert any(p.name == "projector.py" for p in _modules())
    assert not any(STORE in p.parents for p in _modules())


OFFENDERS = {
    "import redis\n": "imports redis",
    "from redis.asyncio import Redis\n": "imports from redis.asyncio",
    "from redis.exceptions import RedisError\n": "imports from redis.exceptions",
    "def f(service):\n    return service.store.redis\n": "reaches a Redis client (service.store.redis)",
    "def f(store):\n    return store.client.register_script('return 1')\n": "calls register_script (store.client.register_script)",
    "async def f(store):\n    async with store.conn.pipeline() as p:\n        pass\n": "calls pipeline (store.conn.pipeline)",
    "async def f(r):\n    await r.hgetall('x')\n": "sends a Redis command (r.hgetall)",
    "async def f(redis_client):\n    await redis_client.get('x')\n": "sends a Redis command (redis_client.get)",
    "async def f(pipe):\n    pipe.set('x', 1)\n": "sends a Redis command (pipe.set)",
    "def key(prefix):\n    return f'{prefix}:lobby'\n": "spells a key (':lobby')",
    "def key(prefix, game):\n    return f'{prefix}:ai:lease:{game}'\n": "spells a key (':ai:lease:')",
    "KEY = 'pantheon:quota:streams:'\n": "spells a key ('pantheon:quota:streams:')",
}


@pytest.mark.parametrize("source", OFFENDERS)
def test_the_scan_catches_a_breach(source):
    assert [f.what for f in scan_source(source)] == [OFFENDERS[source]]


@pytest.mark.parametrize(
    "source",
    [
        "import asyncio\nasync def f(done: asyncio.Event):\n    done.set()\n",  # not a Redis command
        "def f(d):\n    return d.get('x')\n",  # a dict
        "def f():\n    '''The lobby's key is `<prefix>:lobby`.'''\n",  # a docstring says so, spells no key
        "from service.store import RedisError\n",  # the store's exceptions, through the door
        "def f(store):\n    return store.lobby.newest(10)\n",  # an adapter's method
    ],
)
def test_the_scan_leaves_what_is_no_breach_alone(source):
    assert scan_source(source) == []


# --- docs/redis.md's table ----------------------------------------------------------------------

DOC = ROOT / "docs" / "redis.md"


def _doc_rows() -> dict[str, list[str]]:
    """The keys table of docs/redis.md: key -> its cells (type, owner, lifetime, slot tag, what)."""
    rows, text = {}, DOC.read_text()
    table = text.split("## Keys", 1)[1].split("\n## ", 1)[0]
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 6 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_every_key_of_the_store_is_in_docs_redis_md_as_the_store_defines_it():
    rows = _doc_rows()
    missing = [k.pattern for k in KEYS if k.pattern not in rows]
    assert not missing, f"keys the store defines and docs/redis.md's table does not list: {missing}"
    for key in KEYS:
        kind, owner, lifetime, tag = rows[key.pattern][:4]
        assert (kind, owner.strip("`"), lifetime, tag.strip("`")) == (key.type, key.owner, key.lifetime, key.tag), (
            key.pattern
        )
    extra = sorted(set(rows) - {k.pattern for k in KEYS})
    assert not extra, f"docs/redis.md lists keys the store does not define: {extra}"


def test_every_owner_is_an_adapter_of_the_store():
    import importlib

    for key in KEYS:
        module, _, name = key.owner.rpartition(".")
        assert hasattr(importlib.import_module(f"service.store.{module}"), name), key.owner
