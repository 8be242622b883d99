"""The app's settings for the test suite, with one change: each pytest-xdist process
(`scripts/test` runs one per core) gets its own data folder and broker, so that the Celery
worker a process starts never takes another process's tasks, and files written under one
process's ids never meet another's. pytest-django already gives each process its own test
database. The processes a test starts (workers, servers) inherit the environment set here, so
they land in the same shard; the static files, collected once by `scripts/test`, stay shared.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def _shard_broker_url(url: str, shard: int) -> str:
    """Redis keeps databases 0-15 apart: shard n uses database n + 1 (0 is the unsharded
    run's). The filesystem broker lives in the data folder, which is already the shard's."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return url
    return urlunsplit(parts._replace(path=f"/{shard + 1}"))


_SHARD = os.environ.get("PYTEST_XDIST_WORKER", "")
if _SHARD and os.environ.get("TANDEM_TEST_SHARD") != _SHARD:
    _shared = os.environ.get("TANDEM_DATA_DIR", str(Path(__file__).resolve().parent.parent / "var"))
    os.environ["TANDEM_TEST_SHARED_DATA_DIR"] = _shared
    os.environ["TANDEM_DATA_DIR"] = str(Path(_shared) / _SHARD)
    Path(os.environ["TANDEM_DATA_DIR"]).mkdir(parents=True, exist_ok=True)
    if "CELERY_BROKER_URL" in os.environ:
        os.environ["CELERY_BROKER_URL"] = _shard_broker_url(
            os.environ["CELERY_BROKER_URL"], int(_SHARD.removeprefix("gw"))
        )
    os.environ["TANDEM_TEST_SHARD"] = _SHARD

from backend.settings import *  # noqa: E402, F403

if _SHARD:
    STATIC_ROOT = Path(os.environ["TANDEM_TEST_SHARED_DATA_DIR"]).resolve() / "static"
