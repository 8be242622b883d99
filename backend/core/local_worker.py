"""A Celery worker started as a child process, for commands that need one on this machine
(the simulation) when none is running. Production starts workers with scripts/worker."""

import os
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from backend.celery import app as celery_app

QUEUES = "default,cpu"


@dataclass
class LocalWorker:
    process: subprocess.Popen
    name: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


LOG_TAIL_CHARACTERS = 4000
"""How much of a worker's log a failed start quotes: its traceback's end. The log may be in a
folder that is gone by the time somebody reads the message."""


class WorkerDidNotStart(RuntimeError):
    def __init__(self, message: str, worker: LocalWorker) -> None:
        super().__init__(f"{message}; its log ends:\n{worker.log()[-LOG_TAIL_CHARACTERS:]}")
        self.worker = worker


def workers_answering(timeout: float = 2.0) -> list[str]:
    replies = celery_app.control.ping(timeout=timeout) or []
    return [name for reply in replies for name in reply]


def start_local_worker(
    log_dir: Path, concurrency: int = 2, timeout: float = 90.0, env: dict | None = None
) -> LocalWorker:
    """Start a worker on both queues and wait until it answers a ping."""
    short = f"local-{uuid.uuid4().hex[:8]}"
    name = f"{short}@{socket.gethostname()}"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"{short}.log"
    command = [
        sys.executable, "-m", "celery", "-A", "backend", "worker", "--loglevel", "INFO",
        "--concurrency", str(concurrency), "--queues", QUEUES, "--hostname", name,
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            env={**os.environ, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    worker = LocalWorker(process, name, log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise WorkerDidNotStart(
                f"The worker exited with {process.returncode}; see {log_path}", worker
            )
        if celery_app.control.ping(destination=[name], timeout=1.0):
            return worker
    worker.stop()
    raise WorkerDidNotStart(
        f"The worker did not answer within {timeout:.0f} s; see {log_path}", worker
    )
