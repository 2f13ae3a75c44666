"""Every compose file under deploy/ runs what the code accepts: each process of the project's image
runs a `pantheon` subcommand that the real argument parser takes, with flags it takes, and only
environment variables of the settings table that its roles read, with values those settings can
read; every service is health-checked and restarted; dependencies name services that exist; in
the cluster file REDIS_URL names a cluster node and PANTHEON_QUEUE_URL the plain queue Redis; the
proxy sends to the API processes and nothing else. The checker is `problems(path)`; the tests at
the end plant mistakes in copies of the files and see it report each one. `docker compose config`
runs too where the docker CLI has its compose plugin (no images or engine needed)."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from service.cli.commands import parser
from service.config import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
FILES = sorted(p.name for p in DEPLOY.glob("compose*.yaml"))
BY_ENV = {s.env: s for s in SETTINGS}
URL_SETTINGS = ("REDIS_URL", "PANTHEON_QUEUE_URL")
CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}
# The keys the Compose Specification allows (docker compose refuses others; it cannot run here, so a
# misspelt key -- `depend_on`, `healtcheck` -- would otherwise pass unnoticed). Extensions are `x-*`.
TOP_KEYS = {"version", "name", "include", "services", "networks", "volumes", "configs", "secrets", "models"}
SERVICE_KEYS = set(
    [
        "annotations",
        "attach",
        "blkio_config",
        "build",
        "cap_add",
        "cap_drop",
        "cgroup",
        "cgroup_parent",
        "command",
        "configs",
        "container_name",
        "cpu_count",
        "cpu_percent",
        "cpu_period",
        "cpu_quota",
        "cpu_rt_period",
        "cpu_rt_runtime",
        "cpu_shares",
        "cpus",
        "cpuset",
        "credential_spec",
        "depends_on",
        "deploy",
        "develop",
        "device_cgroup_rules",
        "devices",
        "dns",
        "dns_opt",
        "dns_search",
        "domainname",
        "driver_opts",
        "entrypoint",
        "env_file",
        "environment",
        "expose",
        "extends",
        "external_links",
        "extra_hosts",
        "gpus",
        "group_add",
        "healthcheck",
        "hostname",
        "image",
        "init",
        "ipc",
        "isolation",
        "labels",
        "label_file",
        "links",
        "logging",
        "mac_address",
        "mem_limit",
        "mem_reservation",
        "mem_swappiness",
        "memswap_limit",
        "models",
        "network_mode",
        "networks",
        "oom_kill_disable",
        "oom_score_adj",
        "pid",
        "pids_limit",
        "platform",
        "ports",
        "post_start",
        "pre_stop",
        "privileged",
        "profiles",
        "provider",
        "pull_policy",
        "read_only",
        "restart",
        "runtime",
        "scale",
        "secrets",
        "security_opt",
        "shm_size",
        "stdin_open",
        "stop_grace_period",
        "stop_signal",
        "storage_opt",
        "sysctls",
        "tmpfs",
        "tty",
        "ulimits",
        "use_api_socket",
        "user",
        "userns_mode",
        "uts",
        "volumes",
        "volumes_from",
        "working_dir",
    ]
)
HEALTHCHECK_KEYS = {"test", "interval", "timeout", "retries", "start_period", "start_interval", "disable"}
DEPENDS_KEYS = {"condition", "restart", "required"}


# --- reading a compose file ------------------------------------------------------------------


def is_project(service: dict) -> bool:
    """A process of the project's image (deploy/Dockerfile)."""
    build = service.get("build")
    dockerfile = build.get("dockerfile", "Dockerfile") if isinstance(build, dict) else None
    return dockerfile == "deploy/Dockerfile" or str(service.get("image", "")).startswith("pantheon-server")


def argv(command) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(part) for part in command]


def health_argv(service: dict) -> list[str] | None:
    """The health check's command as words (CMD: as given; CMD-SHELL or a string: split like sh)."""
    test = service.get("healthcheck", {}).get("test")
    if test is None or test == ["NONE"]:
        return None
    if isinstance(test, str):
        return shlex.split(test)
    if test[0] == "CMD":
        return [str(part) for part in test[1:]]
    return shlex.split(" ".join(test[1:]))


def environment(service: dict) -> dict[str, str | None]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return {name: None if v is None else str(v).lower() if isinstance(v, bool) else str(v) for name, v in env.items()}


def depends_on(service: dict) -> dict[str, str]:
    deps = service.get("depends_on") or {}
    if isinstance(deps, list):
        return dict.fromkeys(deps, "service_started")
    return {name: (spec or {}).get("condition", "service_started") for name, spec in deps.items()}


def mounts(service: dict, base: Path) -> dict[str, Path]:
    """Files bound into the container: container path -> host path (relative ones from `base`)."""
    found = {}
    for volume in service.get("volumes") or []:
        source, target = volume.split(":")[:2] if isinstance(volume, str) else (volume["source"], volume["target"])
        if source.startswith((".", "/")):
            found[target] = (base / source).resolve()
    return found


def run_parser(words: list[str]) -> tuple[object | None, str]:
    """The CLI's own parser on `words` (without the program name): (namespace, "") or (None, its error)."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            return parser().parse_args(words), ""
    except SystemExit:
        lines = err.getvalue().strip().splitlines()
        return None, lines[-1] if lines else "exits without running (--help?)"


def pantheon_role(words: list[str], where: str, problems: list[str]) -> str | None:
    """The role (the settings table's name for it) that `words` runs, or None with a problem noted."""
    if not words or words[0] != "pantheon":
        problems.append(f"{where}: {words[:1]} is not the `pantheon` command")
        return None
    args, error = run_parser(words[1:])
    if args is None:
        problems.append(f"{where}: `{' '.join(words)}` is refused by the CLI: {error}")
        return None
    return getattr(args, "action", None) or args.command


def value_problem(name: str, value: str) -> str | None:
    """Why the setting `name` cannot read `value` (as service.config reads it), or None."""
    setting = BY_ENV[name]
    try:
        setting.parse(value)
    except ValueError as error:
        return f"not a valid {name}: {value!r} ({error})"
    if (
        name in URL_SETTINGS
        and value
        and (urlparse(value).scheme not in ("redis", "rediss") or not urlparse(value).hostname)
    ):
        return f"{name} is not a redis:// URL: {value!r}"
    if name == "PANTHEON_TRUSTED_PROXIES":
        for item in setting.parse(value):
            try:
                ipaddress.ip_network(item, strict=False)  # as service/http/quotas.py reads it
            except ValueError:
                return f"not an address or network in PANTHEON_TRUSTED_PROXIES: {item!r}"
    return None


def url_host(env: dict[str, str | None], name: str) -> str | None:
    return urlparse(env[name]).hostname if env.get(name) else None


# --- the checks ------------------------------------------------------------------------------


def project_problems(name: str, service: dict, services: dict) -> list[str]:
    """The command, health check and environment of one process of the project's image."""
    problems: list[str] = []
    roles = set()
    role = pantheon_role(argv(service.get("command") or []), f"{name}: command", problems)
    roles.add(role)
    check = health_argv(service)
    if check and "pantheon" in check:
        roles.add(pantheon_role(check[check.index("pantheon") :], f"{name}: healthcheck", problems))
    roles.discard(None)
    env = environment(service)
    for var, value in env.items():
        if var not in BY_ENV:
            problems.append(f"{name}: {var} is no setting of the CLI (service/config.py SETTINGS)")
        elif roles and not roles & BY_ENV[var].roles:
            problems.append(f"{name}: {var} is read by {sorted(BY_ENV[var].roles)}, not by {sorted(roles)}")
        elif value is None or "${" in value:
            continue  # taken from the environment of `docker compose` when it runs: nothing to check here
        elif (why := value_problem(var, value)) is not None:
            problems.append(f"{name}: {why}")
    if roles and "REDIS_URL" not in env:
        problems.append(f"{name}: no REDIS_URL (a role started alone needs one)")
    for var in URL_SETTINGS:
        host = url_host(env, var)
        if host and host not in services:
            problems.append(f"{name}: {var} names {host!r}, which is no service of this file")
    return problems


def unknown_keys(where: str, found, allowed: set[str]) -> list[str]:
    return [f"{where}: unknown key {key!r}" for key in (found or {}) if key not in allowed and not key.startswith("x-")]


def service_problems(name: str, service: dict, services: dict) -> list[str]:
    problems = unknown_keys(name, service, SERVICE_KEYS) + unknown_keys(
        f"{name}: healthcheck", service.get("healthcheck"), HEALTHCHECK_KEYS
    )
    if isinstance(service.get("depends_on"), dict):
        for dep, spec in service["depends_on"].items():
            problems += unknown_keys(f"{name}: depends_on {dep}", spec, DEPENDS_KEYS)
    one_shot = service.get("restart", "no") == "no"
    if not one_shot and service.get("restart") not in ("unless-stopped", "always"):
        problems.append(f"{name}: not restarted when it dies (restart: {service.get('restart')})")
    if not one_shot and health_argv(service) is None:
        problems.append(f"{name}: no healthcheck")
    for dep, condition in depends_on(service).items():
        if dep not in services:
            problems.append(f"{name}: depends on {dep!r}, which is no service of this file")
        elif condition not in CONDITIONS:
            problems.append(f"{name}: depends on {dep} with an unknown condition {condition!r}")
        elif condition == "service_healthy" and health_argv(services[dep]) is None:
            problems.append(f"{name}: waits for {dep} to be healthy, which has no healthcheck")
    return problems


def config_of(service: dict, base: Path) -> str:
    """The text of the Redis config files a redis-server service loads, includes followed."""
    words, files = argv(service.get("command") or []), mounts(service, base)
    text, todo = " ".join(words), [w for w in words if w in files]
    while todo:
        path = files.get(todo.pop())
        if path and path.exists():
            content = path.read_text()
            text += "\n" + content
            todo += re.findall(r"^include\s+(\S+)", content, re.M)
    return text


def cluster_problems(services: dict, base: Path) -> list[str]:
    """A cluster file: 6 nodes made into 3 masters + 3 replicas by a one-shot; REDIS_URL at a node,
    PANTHEON_QUEUE_URL at a plain Redis; the roles wait for the cluster."""
    config = {n: config_of(s, base) for n, s in services.items() if str(s.get("image", "")).startswith("redis")}
    nodes = {
        n for n, text in config.items() if re.search(r"^\s*cluster-enabled\s+yes|--cluster-enabled yes", text, re.M)
    }
    if not nodes:
        return []
    problems = []
    if len(nodes) != 6:
        problems.append(f"{len(nodes)} cluster nodes, not 6 (3 masters + 3 replicas)")
    for node in sorted(nodes):
        words = argv(services[node]["command"])
        announced = (
            words[words.index("--cluster-announce-hostname") + 1] if "--cluster-announce-hostname" in words else None
        )
        if announced != node:
            problems.append(f"{node}: announces {announced!r}, not its service name")
    creators = [n for n, s in services.items() if "--cluster create" in " ".join(argv(s.get("command") or []))]
    if len(creators) != 1:
        problems.append(f"{len(creators)} services make the cluster, not one")
    for creator in creators:
        script = " ".join(argv(services[creator]["command"]))
        if "--cluster-replicas 1" not in script:
            problems.append(f"{creator}: not one replica per master")
        waits = {n for n, c in depends_on(services[creator]).items() if c == "service_healthy"}
        if waits != nodes:
            problems.append(f"{creator}: waits for {sorted(waits)}, not every node")
        problems += [f"{creator}: does not name {n}" for n in sorted(nodes) if not re.search(rf"\b{n}\b", script)]
    plain = set(config) - nodes
    for name, service in services.items():
        if not is_project(service):
            continue
        env = environment(service)
        if url_host(env, "REDIS_URL") not in nodes:
            problems.append(f"{name}: REDIS_URL names {url_host(env, 'REDIS_URL')!r}, no cluster node")
        if url_host(env, "PANTHEON_QUEUE_URL") not in plain:
            problems.append(
                f"{name}: PANTHEON_QUEUE_URL names {url_host(env, 'PANTHEON_QUEUE_URL')!r}, "
                "not a plain Redis (RQ cannot use a cluster)"
            )
        if any(depends_on(service).get(c) != "service_completed_successfully" for c in creators):
            problems.append(f"{name}: does not wait for the cluster to be made")
    return problems


def proxy_problems(services: dict, base: Path) -> list[str]:
    """HAProxy in front: its servers are exactly the API processes, at their port; only it publishes."""
    apis = {n: s for n, s in services.items() if is_project(s) and argv(s.get("command") or [])[1:2] == ["api"]}
    proxies = {n: s for n, s in services.items() if str(s.get("image", "")).startswith("haproxy")}
    problems = []
    for name, proxy in proxies.items():
        cfg = mounts(proxy, base).get("/usr/local/etc/haproxy/haproxy.cfg")
        if cfg is None or not cfg.exists():
            problems.append(f"{name}: no haproxy.cfg mounted")
            continue
        upstreams = dict(re.findall(r"^\s*server\s+\S+\s+([\w.-]+):(\d+)", cfg.read_text(), re.M))
        if set(upstreams) != set(apis):
            problems.append(f"{name}: sends to {sorted(upstreams)}, the API processes are {sorted(apis)}")
        for host, port in upstreams.items():
            if host in apis and port != environment(apis[host]).get("PANTHEON_PORT", "8000"):
                problems.append(f"{name}: sends to {host}:{port}, which listens on another port")
        binds = set(re.findall(r"^\s*bind\s+\S*:(\d+)", cfg.read_text(), re.M))
        published = {str(p).rsplit(":", 1)[-1] for p in proxy.get("ports") or []}
        if not published or not published <= binds:
            problems.append(f"{name}: publishes {sorted(published)}, listens on {sorted(binds)}")
        problems += [f"{api}: publishes a port past the proxy" for api, s in apis.items() if s.get("ports")]
        trusted = {environment(s).get("PANTHEON_TRUSTED_PROXIES") for s in apis.values()}
        networks = proxy.get("networks") if isinstance(proxy.get("networks"), dict) else {}
        fixed = {(spec or {}).get("ipv4_address") for spec in networks.values()}
        if not trusted <= fixed:  # only the proxy's X-Forwarded-For is to be believed
            problems.append(
                f"{name}: the API processes trust {sorted(map(str, trusted))}, "
                f"the proxy is at {sorted(map(str, fixed))}"
            )
    return problems


def problems(path: Path) -> list[str]:
    """Everything wrong with the compose file at `path` (its relative mounts read from its folder)."""
    compose = yaml.safe_load(path.read_text())
    services = compose["services"]
    found: list[str] = unknown_keys(path.name, compose, TOP_KEYS)
    for name, service in services.items():
        found += service_problems(name, service, services)
        if is_project(service):
            found += project_problems(name, service, services)
    return found + cluster_problems(services, path.parent) + proxy_problems(services, path.parent)


# --- the files as they are -------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_every_command_flag_variable_and_dependency_is_one_the_code_accepts(name):
    assert problems(DEPLOY / name) == []


def test_there_is_a_single_redis_file_and_a_cluster_file():
    assert {"compose.yaml", "compose.cluster.yaml"} <= set(FILES)


def test_the_cluster_file_runs_the_whole_topology():
    services = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())["services"]
    roles = [argv(s["command"])[1] for s in services.values() if is_project(s)]
    assert roles.count("api") == 2
    replicas = {
        argv(s["command"])[1]: s.get("deploy", {}).get("replicas", 1) for s in services.values() if is_project(s)
    }
    assert replicas["projector"] >= 2 and replicas["worker"] >= 2
    assert (
        sum(1 for s in services.values() if str(s.get("image", "")).startswith("redis")) == 8
    )  # 6 nodes, create, queue
    volumes = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())["volumes"]
    assert "archive" in volumes  # the game archive's volume, waiting for its role


def test_the_single_redis_file_still_runs_every_role_against_one_redis():
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert set(services) == {"redis", "api", "projector", "worker", "archiver"}
    for role in ("api", "projector", "worker", "archiver"):
        assert services[role]["depends_on"]["redis"]["condition"] == "service_healthy"
        assert environment(services[role])["REDIS_URL"] == "redis://redis:6379/0"


@pytest.mark.parametrize("name", FILES)
def test_yamllint_passes(name):
    done = subprocess.run(
        [sys.executable, "-m", "yamllint", "-c", str(ROOT / ".yamllint.yaml"), "-f", "parsable", str(DEPLOY / name)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _compose_plugin() -> str | None:
    """Why `docker compose` cannot run here, or None when it can."""
    if shutil.which("docker") is None:
        return "no docker CLI on this machine"
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0:
        return "the docker CLI has no compose plugin on this machine (`docker compose version` fails)"
    return None


@pytest.mark.parametrize("name", FILES)
def test_docker_compose_reads_the_file(name):
    if (why := _compose_plugin()) is not None:
        pytest.skip(why)
    done = subprocess.run(
        ["docker", "compose", "-f", str(DEPLOY / name), "config", "-q"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


# --- the checker can fail: mistakes planted in copies ----------------------------------------


def planted(tmp_path: Path, name: str, old: str, new: str, count: int = 1, file: str | None = None) -> list[str]:
    """The problems of a copy of deploy/ in which `old` became `new` in `file` (default: `name`)."""
    copy = tmp_path / "deploy"
    shutil.copytree(DEPLOY, copy)
    target = copy / (file or name)
    text = target.read_text()
    assert old in text, f"nothing to plant: {old!r} is not in {target.name}"
    target.write_text(text.replace(old, new, count))
    return problems(copy / name)


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("compose.cluster.yaml", '["pantheon", "projector"]', '["pantheon", "projector", "--bacth", "64"]', "--bacth"),
        ("compose.yaml", '["pantheon", "projector"]', '["pantheon", "projector", "--batch", "many"]', "--batch"),
        ("compose.cluster.yaml", '["pantheon", "worker"]', '["pantheon", "wroker"]', "wroker"),
        ("compose.yaml", '["pantheon", "worker"]', '["pantheon", "worker", "--port", "80"]', "--port"),  # HTTP only
        ("compose.cluster.yaml", '"pantheon", "alive", "projector"', '"pantheon", "alive", "projecter"', "projecter"),
        ("compose.cluster.yaml", '["pantheon", "api"]', '["python", "-m", "service.cli", "api"]', "not the `pantheon`"),
    ],
)
def test_a_command_the_cli_refuses_is_reported(tmp_path, name, old, new, expected):
    found = planted(tmp_path, name, old, new)
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('PANTHEON_PORT: "8000"', 'PANTHEON_PORTT: "8000"', "PANTHEON_PORTT is no setting"),
        (
            'PANTHEON_FEED_PARTITIONS: "16"',
            'PANTHEON_FEED_PARTITIONS: "sixteen"',
            "not a valid PANTHEON_FEED_PARTITIONS",
        ),
        ("PANTHEON_TRUSTED_PROXIES: 172.28.77.5", "PANTHEON_TRUSTED_PROXIES: the-proxy", "not an address or network"),
        ("PANTHEON_QUEUE_URL: redis://queue:6379/0", "PANTHEON_QUEUE_URL: queue:6379", "not a redis:// URL"),
        ("PANTHEON_QUEUE_URL: redis://queue:6379/0", "PANTHEON_QUEUE_URL: redis://redis-2:6379/0", "not a plain Redis"),
        ("REDIS_URL: redis://redis-1:6379/0", "REDIS_URL: redis://queue:6379/0", "no cluster node"),
        ("REDIS_URL: redis://redis-1:6379/0", "REDIS_URL: redis://redis-9:6379/0", "no service of this file"),
    ],
)
def test_a_variable_the_cli_does_not_know_or_cannot_read_is_reported(tmp_path, old, new, expected):
    found = planted(tmp_path, "compose.cluster.yaml", old, new)
    assert any(expected in p for p in found), found


def test_a_variable_of_another_role_is_reported(tmp_path):
    found = planted(
        tmp_path,
        "compose.yaml",
        "      REDIS_URL: redis://redis:6379/0\n    depends_on: {redis: {condition: "
        "service_healthy}}\n    deploy: {replicas: 2}\n    restart: unless-stopped\n    healthcheck:  # alive: registered",
        '      REDIS_URL: redis://redis:6379/0\n      PANTHEON_PORT: "8001"\n    depends_on: {redis: {condition: '
        "service_healthy}}\n    deploy: {replicas: 2}\n    restart: unless-stopped\n    healthcheck:  # alive: registered",
    )
    assert any(p.startswith("worker: PANTHEON_PORT is read by") for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "cluster-create: {condition: service_completed_successfully}",
            "cluster-make: {condition: service_completed_successfully}",
            "depends on 'cluster-make'",
        ),
        ("queue: {condition: service_healthy}", "queue: {condition: service_ready}", "unknown condition"),
        ('"--cluster-announce-hostname", "redis-3"', '"--cluster-announce-hostname", "redis-03"', "redis-3: announces"),
        ("--cluster-replicas 1", "--cluster-replicas 0", "not one replica per master"),
        ('test: ["CMD", "pantheon", "alive", "worker"]', 'test: ["NONE"]', "worker: no healthcheck"),
        (
            "    deploy: {replicas: 2}\n    healthcheck:  # registered",
            "    deploy: {replicas: 2}\n    healtcheck:  # registered",
            "worker: unknown key 'healtcheck'",
        ),
        ("      interval: 15s", "      intervall: 15s", "projector: healthcheck: unknown key 'intervall'"),
        ("\nvolumes:\n", "\nvolume:\n", "unknown key 'volume'"),
    ],
)
def test_a_broken_dependency_cluster_or_health_check_is_reported(tmp_path, old, new, expected):
    found = planted(tmp_path, "compose.cluster.yaml", old, new)
    assert any(expected in p for p in found), found


def test_a_proxy_that_sends_elsewhere_than_the_api_processes_is_reported(tmp_path):
    found = planted(
        tmp_path, "compose.cluster.yaml", "server api-2 api-2:8000", "server api-2 worker:8000", file="haproxy.cfg"
    )
    assert any("proxy: sends to ['api-1', 'worker']" in p for p in found), found
    found = planted(
        tmp_path / "port",
        "compose.cluster.yaml",
        "server api-1 api-1:8000",
        "server api-1 api-1:8080",
        file="haproxy.cfg",
    )
    assert any("api-1:8080" in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("PANTHEON_TRUSTED_PROXIES: 172.28.77.5", "PANTHEON_TRUSTED_PROXIES: 172.28.77.6", "the API processes trust"),
        ("  api-1: *api", '  api-1: {<<: *api, ports: ["8001:8000"]}', "api-1: publishes a port past the proxy"),
        (
            'ports: ["8000:8000"]\n    networks: {pantheon: {ipv4_address: 172.28.77.5}}',
            'ports: ["8080:8080"]\n    networks: {pantheon: {ipv4_address: 172.28.77.5}}',
            "proxy: publishes ['8080']",
        ),
    ],
)
def test_a_proxy_bypassed_or_trusted_wrongly_is_reported(tmp_path, old, new, expected):
    found = planted(tmp_path, "compose.cluster.yaml", old, new)
    assert any(expected in p for p in found), found


@pytest.mark.parametrize("name", FILES)
def test_every_api_process_and_the_archiver_share_the_archive_volume(name):
    """Archived games are read by every API process from the volume the archiver writes."""
    compose = yaml.safe_load((DEPLOY / name).read_text())
    services = compose["services"]
    readers = [s for s, spec in services.items() if is_project(spec) and argv(spec["command"])[1:2] == ["api"]]
    archivers = [s for s, spec in services.items() if is_project(spec) and argv(spec["command"])[1:2] == ["archiver"]]
    assert readers and archivers and "archive" in compose["volumes"]
    for service in readers + archivers:
        spec = services[service]
        mounts = [str(v).split(":")[:2] for v in spec.get("volumes", [])]
        assert ["archive", "/archive"] in mounts, service
        assert spec["environment"]["PANTHEON_ARCHIVE_DIR"] == "/archive", service
