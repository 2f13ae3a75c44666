"""The cluster compose file's Redis really makes a cluster the roles can use, without Docker: six
redis-servers on deploy/redis.conf + deploy/redis-cluster.conf, named redis-1 … redis-6 in a private
network and mount namespace of their own (an /etc/hosts of its own there), and the `cluster-create`
service's script as the compose file has it. It makes 3 masters + 3 replicas, a second run finds the
cluster and changes nothing, and the project's client, given redis://redis-1:6379/0, finds the
cluster and is sent to the nodes by name; a master whose replica is gone refuses writes
(min-replicas-to-write). Needs root (unshare) and redis-server: skipped otherwise."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NODES = [f"redis-{i}" for i in range(1, 7)]

CLIENT = """
import json
from service.store.connection import connect_sync
client = connect_sync("redis://redis-1:6379/0", timeout_s=3)
for k in range(50):
    client.set(f"k{k}", k)
print(json.dumps({"client": type(client).__name__, "hosts": sorted({n.host for n in client.get_nodes()}),
                  "k7": client.get("k7").decode()}))
"""


# Defence in depth (redis-cluster.conf: min-replicas-to-write 1): a master whose replica is gone
# refuses a write of its own slots at once (NOREPLICAS) and keeps the value it had.
REFUSED = """
import time
import redis
from redis.crc import key_slot
nodes = [redis.Redis(host=f"redis-{i}", socket_timeout=3) for i in range(1, 7)]
replica = next(c for c in nodes if c.info("replication")["role"] == "slave")
link = replica.info("replication")
master = redis.Redis(host=link["master_host"], port=link["master_port"], socket_timeout=3)
me = master.execute_command("CLUSTER", "MYID")
mine = [(low, high) for low, high, owner, *_ in master.execute_command("CLUSTER", "SLOTS") if owner[2] == me]
key = next(k for k in (f"k{n}" for n in range(100_000)) if any(lo <= key_slot(k.encode()) <= hi for lo, hi in mine))
master.set(key, "with a replica")
try:
    replica.shutdown(nosave=True)
except redis.ConnectionError:
    pass
deadline = time.monotonic() + 20
while master.info("replication")["connected_slaves"] and time.monotonic() < deadline:
    time.sleep(0.1)
try:
    master.set(key, "without one")
    print("written")
except redis.ResponseError as error:
    print(str(error).split(".")[0])
print(master.get(key).decode())
"""


def _why_not() -> str | None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return "needs root and unshare (a private network namespace for the six nodes)"
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        return "needs redis-server and redis-cli"
    if subprocess.run(["unshare", "-mn", "true"], capture_output=True).returncode != 0:
        return "unshare -mn is not permitted here"
    return None


def _driver(tmp: Path) -> str:
    """The shell script run inside the namespaces: start the nodes, run the creator twice, the client."""
    script = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())["services"]["cluster-create"]["command"]
    assert script[:2] == ["sh", "-c"]
    (tmp / "create.sh").write_text(script[2].replace("$$", "$"))  # compose's escape of $
    (tmp / "hosts").write_text("127.0.0.1 localhost\n" + "".join(f"127.0.0.1{i} {n}\n" for i, n in enumerate(NODES, 1)))
    (tmp / "redis.conf").write_text(re.sub(r"^dir .*$", f"dir {tmp}", (DEPLOY / "redis.conf").read_text(), flags=re.M))
    (tmp / "redis-cluster.conf").write_text(
        re.sub(r"^include .*$", f"include {tmp}/redis.conf", (DEPLOY / "redis-cluster.conf").read_text(), flags=re.M)
    )
    (tmp / "client.py").write_text(CLIENT)
    (tmp / "refused.py").write_text(REFUSED)
    # Each container has one address; here the six share a loopback, so each also announces its own
    # (else a node would be met from 127.0.0.1, the loopback's first address) -- not needed in Docker.
    start = "".join(
        f"mkdir -p {tmp}/n{i}; redis-server {tmp}/redis-cluster.conf --cluster-announce-hostname {n} "
        f"--bind 127.0.0.1{i} --cluster-announce-ip 127.0.0.1{i} --dir {tmp}/n{i} --logfile {tmp}/n{i}.log &\n"
        f'pids="$pids $!"\n'
        for i, n in enumerate(NODES, 1)
    )
    wait = "".join(
        f"timeout 20 sh -c 'until redis-cli -h {n} ping >/dev/null 2>&1; do sleep 0.1; done'\n" for n in NODES
    )  # every step bounded: the trap below must get to stop the nodes
    return f"""set -e
pids=""
trap 'kill -9 $pids 2>/dev/null || true' EXIT
mount --bind {tmp}/hosts /etc/hosts
ip link set lo up
{start}{wait}
echo "== first"; timeout 60 sh {tmp}/create.sh
echo "== second"; timeout 60 sh {tmp}/create.sh
echo "== replicas $(redis-cli -h redis-1 cluster nodes | grep -c slave)"
echo "== client"; cd {ROOT} && timeout 60 {sys.executable} {tmp}/client.py
echo "== refused"; timeout 60 {sys.executable} {tmp}/refused.py
"""


@pytest.mark.long
def test_the_cluster_create_script_makes_a_cluster_once_that_the_roles_find_by_name(tmp_path):
    if (why := _why_not()) is not None:
        pytest.skip(why)
    (tmp_path / "driver.sh").write_text(_driver(tmp_path))
    done = subprocess.run(
        ["unshare", "-mn", "sh", str(tmp_path / "driver.sh")], capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    first, second = done.stdout.split("== second")[0], done.stdout.split("== second")[1].split("== replicas")[0]
    assert "[OK] All 16384 slots covered" in first and "cluster ok, replicas: 3 of 3 in sync" in first
    assert "the cluster exists (6 nodes)" in second and "Performing hash slots" not in second and "cluster ok" in second
    assert "== replicas 3" in done.stdout
    client = json.loads(done.stdout.split("== client")[1].split("== refused")[0])
    assert client["client"] == "RedisCluster" and client["k7"] == "7"
    assert set(client["hosts"]) <= set(NODES) and len(client["hosts"]) >= 3  # by name, as the nodes announce
    refused = done.stdout.split("== refused")[1].split("\n")
    assert refused[1:3] == ["NOREPLICAS Not enough good replicas to write", "with a replica"], refused
