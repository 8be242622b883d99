"""Reads that tell whether Tandem's services can do work right now."""

from dataclasses import dataclass

from django.db import DatabaseError, connection

from backend.celery import app as celery_app

BROKER_TIMEOUT_SECONDS = 2
WORKER_PING_TIMEOUT_SECONDS = 1.5
UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class ServiceCheck:
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class WorkersCheck(ServiceCheck):
    count: int = 0
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Health:
    database: ServiceCheck
    broker: ServiceCheck
    workers: WorkersCheck

    @property
    def ok(self) -> bool:
        return self.database.ok and self.broker.ok and self.workers.ok

    def without_details(self) -> "Health":
        """What anyone may see: reachability and the number of workers. Error texts name
        hosts and ports, and worker names are host names: those are for staff."""
        return Health(
            database=ServiceCheck(self.database.ok, "" if self.database.ok else UNREACHABLE),
            broker=ServiceCheck(self.broker.ok, "" if self.broker.ok else UNREACHABLE),
            workers=WorkersCheck(
                self.workers.ok,
                "" if self.workers.ok else "no worker answered",
                count=self.workers.count,
            ),
        )


def database_check() -> ServiceCheck:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return ServiceCheck(ok=False, detail=f"{type(error).__name__}: {error}")
    return ServiceCheck(ok=True)


def broker_check() -> ServiceCheck:
    try:
        with celery_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as error:  # noqa: BLE001 - any transport failure means "unreachable"
        return ServiceCheck(ok=False, detail=f"{type(error).__name__}: {error}")
    return ServiceCheck(ok=True)


def workers_check() -> WorkersCheck:
    """Workers that answer a broadcast ping; none answering means queued work will wait."""
    try:
        replies = celery_app.control.ping(timeout=WORKER_PING_TIMEOUT_SECONDS) or []
    except Exception as error:  # noqa: BLE001 - the broker is down; broker_check says why
        return WorkersCheck(ok=False, detail=f"cannot ask workers: {error}")
    names = tuple(sorted(name for reply in replies for name in reply))
    if not names:
        return WorkersCheck(ok=False, detail="no worker answered the ping")
    return WorkersCheck(ok=True, count=len(names), names=names)


def service_health() -> Health:
    broker = broker_check()
    workers = workers_check() if broker.ok else WorkersCheck(ok=False, detail="broker down")
    return Health(database=database_check(), broker=broker, workers=workers)
