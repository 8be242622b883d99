"""docker-compose.yml cannot be started here (no Docker engine), so its promises are checked."""

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_backing_services_have_healthchecks(compose):
    for name in ("postgres", "redis"):
        assert compose["services"][name]["healthcheck"]["test"], name


@pytest.mark.parametrize("service", ["web", "worker", "migrate"])
def test_app_services_wait_for_healthy_backing_services(compose, service):
    depends_on = compose["services"][service]["depends_on"]

    assert depends_on["postgres"] == {"condition": "service_healthy"}
    assert depends_on["redis"] == {"condition": "service_healthy"}


def test_web_and_worker_run_the_scripts_the_quickstart_runs(compose):
    assert compose["services"]["web"]["command"] == ["scripts/web"]
    assert compose["services"]["worker"]["command"] == ["scripts/worker"]
    quickstart = (ROOT / "scripts" / "run").read_text()
    assert '"$ROOT/scripts/web"' in quickstart
    assert '"$ROOT/scripts/worker"' in quickstart


def test_worker_is_scalable_and_data_lives_in_volumes(compose):
    worker = compose["services"]["worker"]
    assert "container_name" not in worker, "a fixed name would forbid --scale worker=N"
    assert "ports" not in worker
    assert {"postgres", "redis", "media"} <= set(compose["volumes"])
    assert "media:/data/media" in compose["services"]["web"]["volumes"]


def test_production_needs_an_explicit_secret(compose):
    secret = compose["services"]["web"]["environment"]["DJANGO_SECRET_KEY"]
    assert secret.startswith("${DJANGO_SECRET_KEY:?"), "compose must refuse to start without one"


@pytest.mark.parametrize(
    ("service", "policy"),
    [("web", "unless-stopped"), ("worker", "unless-stopped"), ("migrate", "no")],
)
def test_the_web_server_and_workers_come_back_after_they_exit_and_migrate_runs_once(
    compose, service, policy
):
    assert compose["services"][service]["restart"] == policy
