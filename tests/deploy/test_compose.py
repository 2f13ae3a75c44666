"""The compose file restarts every role that dies and checks the health of every one (no Docker
engine here: the file's content is checked; `pantheon alive` itself is tested in tests/service/cli)."""

from pathlib import Path

import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "deploy" / "compose.yaml"


def test_every_service_restarts_and_reports_its_health():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert set(services) == {"redis", "api", "projector", "worker", "archiver"}
    assert {name: s.get("restart") for name, s in services.items()} == dict.fromkeys(services, "unless-stopped")
    assert "ping" in services["redis"]["healthcheck"]["test"]
    assert any("/health/ready" in part for part in services["api"]["healthcheck"]["test"])
    for role in ("projector", "worker", "archiver"):
        assert services[role]["healthcheck"]["test"] == ["CMD", "pantheon", "alive", role]
    for role in ("api", "projector", "worker", "archiver"):
        assert services[role]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_the_api_and_the_archiver_share_the_archive_volume():
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    assert "archive" in compose["volumes"]
    for role in ("api", "archiver"):
        assert "archive:/archive" in services[role]["volumes"], role
        assert services[role]["environment"]["PANTHEON_ARCHIVE_DIR"] == "/archive", role
