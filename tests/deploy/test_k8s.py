"""The Kubernetes manifests (deploy/k8s) validate offline against the Kubernetes schemas (strict:
an unknown field is an error), pass yamllint, and give every role what it needs to run unattended:
probes, resources, disruption budgets, an autoscaler for the API, and settings the code reads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
VERSION = "1.30.0"  # the oldest Kubernetes the manifests promise to run on


def documents(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def manifests() -> dict[str, dict]:
    """Every resource, by `kind/name`."""
    return {
        f"{d['kind']}/{d['metadata']['name']}": d
        for p in sorted(K8S.glob("*.yaml"))
        if p.name != "kustomization.yaml"
        for d in documents(p)
    }


@pytest.mark.parametrize("path", sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml"))
def test_every_manifest_validates_strictly(path):
    for doc in documents(K8S / path):
        kubernetes_validate.validate(doc, VERSION, strict=True)


def test_a_misspelt_field_is_caught():
    """The validation can fail: one wrong field name in the API's Deployment is an error."""
    deployment = manifests()["Deployment/api"]
    broken = yaml.safe_load(yaml.safe_dump(deployment).replace("replicas:", "replica:"))
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSION, strict=True)


def test_the_kustomization_lists_every_manifest_but_the_secret_example():
    listed = set(yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"])
    present = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml"}
    assert listed == present


def test_yamllint_passes_on_deploy():
    done = subprocess.run(
        [sys.executable, "-m", "yamllint", "-c", str(ROOT / ".yamllint.yaml"), "-f", "parsable", str(ROOT / "deploy")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_role_has_probes_resources_and_a_disruption_budget():
    found = manifests()
    deployments = {n: d for n, d in found.items() if d["kind"] in ("Deployment", "StatefulSet")}
    assert {
        "Deployment/api",
        "Deployment/projector",
        "Deployment/worker",
        "StatefulSet/redis-cluster",
        "Deployment/redis-queue",
    } <= set(deployments)
    for name, d in deployments.items():
        for container in d["spec"]["template"]["spec"]["containers"]:
            assert "livenessProbe" in container, name
            assert container["resources"]["requests"] and container["resources"]["limits"]["memory"], name
    assert (
        found["Deployment/api"]["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["path"]
        == "/health/ready"
    )
    budgets = {
        tuple(sorted(d["spec"]["selector"]["matchLabels"].items()))
        for d in found.values()
        if d["kind"] == "PodDisruptionBudget"
    }
    for name in ("Deployment/api", "Deployment/projector", "Deployment/worker", "StatefulSet/redis-cluster"):
        assert tuple(sorted(deployments[name]["spec"]["selector"]["matchLabels"].items())) in budgets, name
    hpa = found["HorizontalPodAutoscaler/api"]["spec"]
    assert hpa["scaleTargetRef"]["name"] == "api" and hpa["minReplicas"] >= 2


def test_roles_run_commands_the_cli_has_and_settings_the_code_reads():
    from service.cli.commands import parser

    read = set(
        re.findall(r"PANTHEON_[A-Z0-9_]+|REDIS_URL", "".join(p.read_text() for p in (ROOT / "service").rglob("*.py")))
    )
    config = manifests()["ConfigMap/pantheon-config"]["data"]
    assert set(config) <= read, set(config) - read
    secret = manifests()["Secret/pantheon-secret"]["stringData"]
    assert set(secret) <= read
    roles = parser()._subparsers._group_actions[0].choices  # the CLI's subcommands
    for name in ("Deployment/api", "Deployment/projector", "Deployment/worker", "Deployment/archiver"):
        container = manifests()[name]["spec"]["template"]["spec"]["containers"][0]
        program, role = container["command"][:2]
        assert program == "pantheon" and role in roles, name
        probe = container["livenessProbe"].get("exec", {}).get("command")
        if probe:
            assert probe[:2] == ["pantheon", "alive"] and probe[2] in ("projector", "worker", "archiver")


def test_the_api_and_the_archiver_mount_one_read_write_many_archive():
    found = manifests()
    assert found["PersistentVolumeClaim/archive"]["spec"]["accessModes"] == ["ReadWriteMany"]
    mount = found["ConfigMap/pantheon-config"]["data"]["PANTHEON_ARCHIVE_DIR"]
    for name in ("Deployment/api", "Deployment/archiver"):
        pod = found[name]["spec"]["template"]["spec"]
        assert {"name": "archive", "persistentVolumeClaim": {"claimName": "archive"}} in pod["volumes"], name
        assert any(m["mountPath"] == mount for m in pod["containers"][0]["volumeMounts"]), name


def test_only_the_event_stores_masters_refuse_writes_without_a_replica():
    """min-replicas-to-write on the cluster's nodes (defence in depth behind WAIT), never on the queue
    nor on the single Redis of compose.yaml (deploy/redis.conf, which the cluster's conf includes)."""
    found = manifests()

    def server_args(name: str) -> str:
        container = found[name]["spec"]["template"]["spec"]["containers"][0]
        return " ".join(container.get("command", []) + container.get("args", []))

    assert "--min-replicas-to-write 1" in server_args("StatefulSet/redis-cluster")
    assert "min-replicas" not in server_args("Deployment/redis-queue")
    assert re.search(r"^min-replicas-to-write 1$", (ROOT / "deploy" / "redis-cluster.conf").read_text(), re.M)
    assert "min-replicas" not in (ROOT / "deploy" / "redis.conf").read_text()
