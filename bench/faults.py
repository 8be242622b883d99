"""Fault injection as JSON: a worker killed, the database stopped and the broker stopped in the
middle of a real job, on both stacks, each against private services it starts and stops.

    .venv/bin/python -m bench.faults [--stack sqlite,postgres] [--runs 3] [--outage 20]

The job is a pre-alignment of three large public_meetings meetings (752 to 842 turns) with
the shipped parameters for new documents (lexical vectors, stored beforehand) on two workers
of one process each, so each fault lands while a task is mid-document. Scenarios, each
`--runs` times:

- `kill`: the worker running the job is killed with -9 once its first document is stored;
  the other worker must take the job up. `resent_s` is from the kill to the job sent again
  (the liveness rule, backend/jobs/liveness.py), `finished_s` to its end; a replacement
  worker is started before the next job, as a supervisor would.
- `database`: the database is stopped for `--outage` seconds once the first document is
  stored; meanwhile a signed-in client reads the job (as the web app polls it) every second;
  `finished_after_return_s` is from the database's return to the job's end.
- `broker`: the same with the broker stopped; the client reads the job and asks for another
  pre-alignment (which must answer 503, nothing started).

After each outage a short job (the diagonal on one document) must succeed too: the workers
take new work again (`next_job_s`, from its start to its end). A worker that exited on its
own is replaced before the next job, as compose's restart policy replaces it, and listed in
`workers_exited` with its exit code and its log's end.

Every run checks what the issue asks: the job ends succeeded, or failed with its reason; one
pre-alignment per document (no duplicate result); every answer during an outage is the job
(200, only the broker down) or 503 with Retry-After, never a 500.

The stacks, each in a fresh temporary folder (never the shared services):

- `sqlite`: SQLite and the filesystem broker, the embedded default. SQLite has no server to
  stop: its outage is its file's folder going away (a detached volume, a moved data folder;
  the folder is renamed and renamed back): connections already open keep their file, new
  ones fail. The broker's outage is its folder going away the same way.
- `postgres`: a throwaway PostgreSQL cluster (initdb, pg_ctl; run as the postgres user when
  root) and `redis-server --save '' --appendonly no` on free ports: the database is stopped
  with `pg_ctl stop -m fast` (every connection cut) and started again; Redis is shut down and
  started again empty, as a restart without persistence leaves it.

`setup_s` (migrations, imports, workers started) and each scenario's `wall_s` say where a
run's time goes. Liveness settings are the defaults unless the environment sets
TANDEM_JOB_HEARTBEAT_SECONDS and TANDEM_JOB_LOST_AFTER_SECONDS (tests/tasks/test_faults.py
shortens them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STACKS = ("sqlite", "postgres")
SCENARIOS = ("database", "broker", "kill")
BIG_MEETINGS = [
    "199073d27fc61f6a76cb1f9c1d977aa6",  # 842 turns
    "398ab01c54479bcd841b467dadca1222",  # 752
    "78ea37f9bf10bee29355e823669c8133",  # 764
]
JOB_DEADLINE_SECONDS = 300
"""A job not finished this long after its fault counts as stuck."""
STDERR_KEPT = 16000
"""Characters of a failed stack run's stderr kept in its report: its traceback's end."""

ENVIRONMENT = {
    "DJANGO_SETTINGS_MODULE": "backend.settings",
    "DJANGO_SECRET_KEY": "bench",
    "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1",
    "DJANGO_SECURE_COOKIES": "0",
    "DJANGO_DEBUG": "0",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", default=",".join(STACKS), help="sqlite, postgres or both")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--runs", type=int, default=3, help="runs of each scenario")
    parser.add_argument("--outage", type=float, default=20.0, help="seconds of each outage")
    parser.add_argument(
        "--meetings",
        default=",".join(BIG_MEETINGS),
        help="public_meetings ids of the job's documents, comma-separated",
    )
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        print(json.dumps(run_inside(json.loads(args.inside), args)))
        return
    report = {
        "load_average_before": os.getloadavg(),
        "stacks": {
            stack: run_stack(stack, args)
            for stack in args.stack.split(",")
            if stack  # "--stack sqlite," names one
        },
        "load_average_after": os.getloadavg(),
    }
    print(json.dumps(report, indent=2))


def run_stack(stack: str, args: argparse.Namespace) -> dict[str, Any]:
    """Each stack in a process of its own: Django reads its database and broker once."""
    with tempfile.TemporaryDirectory(prefix=f"faults-{stack}-") as folder:
        root = Path(folder)
        root.chmod(0o755)  # the postgres user reaches its cluster inside
        services = SqliteServices(root) if stack == "sqlite" else PostgresServices(root)
        # A file, not a pipe: a server the run restarts inherits its stderr and outlives it.
        stderr_path = root / "stack-stderr.log"
        with services.running(), stderr_path.open("w") as stderr:
            completed = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bench.faults",
                    "--inside",
                    json.dumps(services.describe()),
                    "--scenarios",
                    args.scenarios,
                    "--runs",
                    str(args.runs),
                    "--outage",
                    str(args.outage),
                    "--meetings",
                    args.meetings,
                ],
                cwd=ROOT,
                env={**ENVIRONMENT, **os.environ, **services.environment()},
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                check=False,
            )
        if completed.returncode != 0:
            return {
                "error": f"the stack's run exited with {completed.returncode}",
                "stderr": stderr_path.read_text(errors="replace")[-STDERR_KEPT:],
            }
        return json.loads(completed.stdout)


@dataclass
class SqliteServices:
    """SQLite in `root/db`, the filesystem broker in `root/data/broker`."""

    root: Path

    @contextmanager
    def running(self):
        (self.root / "db").mkdir()
        yield

    def describe(self) -> dict[str, Any]:
        return {"kind": "sqlite", "root": str(self.root)}

    def environment(self) -> dict[str, str]:
        return {
            "TANDEM_DATA_DIR": str(self.root / "data"),
            "DATABASE_URL": f"sqlite:///{self.root / 'db' / 'tandem.sqlite3'}",
            "CELERY_BROKER_URL": "filesystem://",
        }


@dataclass
class PostgresServices:
    """A PostgreSQL cluster and a Redis server of the bench's own, on free ports."""

    root: Path
    pg_port: int = field(default_factory=lambda: free_port())
    redis_port: int = field(default_factory=lambda: free_port())

    @contextmanager
    def running(self):
        cluster = self.root / "pg"
        cluster.mkdir()
        if os.geteuid() == 0:
            shutil.chown(cluster, "postgres")
        postgres_command(["initdb", "-D", str(cluster), "-A", "trust", "-U", "postgres"])
        control = PostgresControl(str(cluster), self.pg_port)
        control.start()
        redis = RedisControl(self.redis_port)
        redis.start()
        try:
            subprocess.run(
                [
                    "psql",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.pg_port),
                    "-U",
                    "postgres",
                    "-q",
                    "-c",
                    "CREATE DATABASE tandem",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            yield
        finally:
            redis.stop()
            control.stop()

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "postgres",
            "root": str(self.root),
            "cluster": str(self.root / "pg"),
            "pg_port": self.pg_port,
            "redis_port": self.redis_port,
        }

    def environment(self) -> dict[str, str]:
        return {
            "TANDEM_DATA_DIR": str(self.root / "data"),
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/tandem",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
        }


def free_port() -> int:
    from bench.live_server import _free_port

    return _free_port()


def as_postgres(command: list[str]) -> list[str]:
    """Root may not run PostgreSQL's programs; its own user may."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def postgres_program(name: str) -> str | None:
    """PostgreSQL's server programs: Debian keeps them off the PATH, by version."""
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(installed[-1]) if installed else shutil.which(name)


def can_run_postgres_stack() -> bool:
    return all(postgres_program(name) for name in ("initdb", "pg_ctl")) and all(
        shutil.which(name) for name in ("psql", "redis-server", "redis-cli")
    )


def postgres_command(command: list[str]) -> None:
    program = postgres_program(command[0]) or command[0]
    subprocess.run(
        as_postgres([program, *command[1:]]),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@dataclass
class PostgresControl:
    cluster: str
    port: int

    def start(self) -> None:
        postgres_command(
            [
                "pg_ctl",
                "-D",
                self.cluster,
                "-l",
                f"{self.cluster}/log",
                "-w",
                "-o",
                f"-p {self.port} -k {self.cluster} -c listen_addresses=127.0.0.1",
                "start",
            ]
        )

    def stop(self) -> None:
        postgres_command(["pg_ctl", "-D", self.cluster, "-m", "fast", "-w", "stop"])


@dataclass
class RedisControl:
    """By port, so that the process that stops it need not be the one that started it."""

    port: int

    def start(self) -> None:
        subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._cli("ping") == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def stop(self) -> None:
        self._cli("shutdown", "nosave")

    def _cli(self, *command: str) -> str:
        answer = subprocess.run(
            ["redis-cli", "-p", str(self.port), *command], capture_output=True, text=True
        )
        return answer.stdout.strip()


class FolderOutage:
    """A folder renamed away and back: what its users see when its volume is gone."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.away = folder.with_name(folder.name + ".away")

    def stop(self) -> None:
        self.folder.rename(self.away)

    def start(self) -> None:
        self.away.rename(self.folder)


def database_control(services: dict[str, Any]):
    if services["kind"] == "sqlite":
        return FolderOutage(Path(services["root"]) / "db")
    return PostgresControl(services["cluster"], services["pg_port"])


def broker_control(services: dict[str, Any]):
    if services["kind"] == "sqlite":
        return FolderOutage(Path(services["root"]) / "data" / "broker")
    return RedisControl(services["redis_port"])


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians of each figure over the runs, beside the runs."""
    figures = {}
    for key in ("resent_s", "finished_s", "finished_after_return_s", "next_job_s"):
        values = [run[key] for run in runs if run.get(key) is not None]
        if values:
            figures[f"median_{key}"] = round(statistics.median(values), 1)
            figures[f"range_{key}"] = [round(min(values), 1), round(max(values), 1)]
    return {
        **figures,
        "outcomes": dict(Counter(run["status"] for run in runs)),
        "all_checks_pass": all(run["checks_pass"] for run in runs),
        "runs": runs,
    }


def run_inside(services: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The scenarios, in the process whose settings name the stack's services."""
    import django

    django.setup()
    from django.core.management import call_command

    from backend.core.local_worker import start_local_worker

    started = time.monotonic()
    call_command("migrate", verbosity=0)
    log_folder = Path(services["root"]) / "logs"

    def start_worker():
        return start_local_worker(log_folder, concurrency=1)

    # The two workers boot (seconds each) while the documents are imported; the imports'
    # tasks wait for them in the broker.
    with ThreadPoolExecutor(max_workers=2) as pool:
        starting = [pool.submit(start_worker) for _ in range(2)]
        try:
            project = gold_project(args.meetings.split(","))
        except BaseException:
            for future in starting:
                future.result().stop()
            raise
        workers = [future.result() for future in starting]
    bench = FaultBench(services, args.outage, start_worker, *project)
    bench.workers = workers
    try:
        bench.wait_until_idle()
        report: dict[str, Any] = {"setup_s": round(time.monotonic() - started, 1)}
        for scenario in args.scenarios.split(","):
            started = time.monotonic()
            report[scenario] = summary([getattr(bench, scenario)(run) for run in range(args.runs)])
            report[scenario]["wall_s"] = round(time.monotonic() - started, 1)
        report["workers_exited"] = bench.exits
        return report
    finally:
        for worker in bench.workers:
            worker.stop()


def gold_project(meetings: list[str]):
    """A project with a lead and the meetings, and the shipped parameters for new documents
    (lexical vectors, stored before any fault), so that a job spends its time aligning."""
    from django.contrib.auth import get_user_model

    from backend.alignments.services.pre_alignments import (
        alignment_params,
        shipped_parameter_set,
    )
    from backend.curation.public_meetings import public_meeting_gold_import
    from backend.projects.models import Membership, Project, Role
    from backend.vectors.services import vectors_for

    lead = get_user_model().objects.create_user(f"lead-{time.monotonic_ns()}")
    project = Project.objects.create(name="faults")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    documents = [
        public_meeting_gold_import(actor=lead, project=project, meeting_id=meeting)
        for meeting in meetings
    ]
    shipped = shipped_parameter_set(project)
    vectors_for(project_id=project.pk, settings=alignment_params(shipped).vectors)
    return project, lead, documents, shipped.params


class FaultBench:
    def __init__(self, services, outage, start_worker, project, lead, documents, params) -> None:
        from django.test import Client

        self.services = services
        self.outage = outage
        self.project, self.lead, self.documents, self.params = project, lead, documents, params
        self.client = Client(raise_request_exception=False)
        self.client.force_login(lead)
        self.start_worker = start_worker
        self.workers: list = []
        self.job_id: int | None = None
        self.exits: list[dict[str, Any]] = []
        """Workers that exited on their own, each with its exit code, the last job watched
        before the exit was noticed, and its log's end."""

    # The scenarios: each returns one run's figures and checks.

    def kill(self, run: int) -> dict[str, Any]:
        job_id, parameter_set_id = self.start_job(f"kill {run}")
        self.wait_for_first_document(job_id)
        victim = self.worker_running(job_id)
        os.killpg(victim.process.pid, signal.SIGKILL)
        victim.process.wait()
        killed = time.monotonic()
        self.workers.remove(victim)
        resent = self.wait_until(lambda job: job["requeues"] > 0 or job["status"] in FINISHED)
        ended = self.wait_until(lambda job: job["status"] in FINISHED)
        return self.verdict(
            job_id,
            parameter_set_id,
            resent_s=resent - killed,
            finished_s=ended - killed,
        )

    def database(self, run: int) -> dict[str, Any]:
        return self.outage_run(f"database {run}", database_control(self.services), broker=False)

    def broker(self, run: int) -> dict[str, Any]:
        return self.outage_run(f"broker {run}", broker_control(self.services), broker=True)

    def outage_run(self, name: str, control, *, broker: bool) -> dict[str, Any]:
        job_id, parameter_set_id = self.start_job(name)
        self.wait_for_first_document(job_id)
        job_url = f"/api/v1/projects/{self.project.pk}/jobs/{job_id}/"
        control.stop()
        stopped = time.monotonic()
        reads: list[dict[str, Any]] = []
        starts: list[dict[str, Any]] = []
        try:
            while time.monotonic() - stopped < self.outage:
                reads.append(self.request("get", job_url))
                if broker and not starts and time.monotonic() - stopped > 2:
                    starts.append(
                        self.request(
                            "post",
                            f"/api/v1/projects/{self.project.pk}/pre-alignments/",
                            {
                                "parameter_set": parameter_set_id,
                                "documents": [self.documents[0].pk],
                            },
                        )
                    )
                time.sleep(1)
        finally:
            control.start()
        back = time.monotonic()
        ended = self.wait_until(lambda job: job["status"] in FINISHED)
        after = self.request("get", job_url)
        next_status, next_seconds = self.next_job()
        expected_read = (200,) if broker else (503,)
        answers_right = (
            all(
                a["status"] in expected_read and (a["status"] != 503 or a["retry_after"])
                for a in reads
            )
            and all(a["status"] == 503 and a["retry_after"] for a in starts)
            and after["status"] == 200
        )
        return self.verdict(
            job_id,
            parameter_set_id,
            finished_after_return_s=ended - back,
            answers_during_outage=dict(Counter(str(a["status"]) for a in reads + starts)),
            start_during_outage=starts[0] if starts else None,
            next_job_s=next_seconds,
            answers_right=answers_right,
            next_job_right=next_status == "succeeded",
        )

    def next_job(self) -> tuple[str, float]:
        """The workers take new work once the service is back: a short job (the diagonal
        on one document) started after the faulty one ended; its end and time."""
        from backend.alignments.services.pre_alignments import (
            diagonal_parameter_set,
            pre_align_start,
        )
        from backend.jobs.models import Job

        started = time.monotonic()
        self.job_id = pre_align_start(
            actor=self.lead,
            project=self.project,
            documents=self.documents[:1],
            parameter_set=diagonal_parameter_set(self.project),
        ).pk
        ended = self.wait_until(lambda job: job["status"] in FINISHED)
        return Job.objects.get(pk=self.job_id).status, ended - started

    # What the scenarios share.

    def request(self, method: str, url: str, body: dict | None = None) -> dict[str, Any]:
        """One request on a connection of its own, as the web server makes it (Django's test
        client would keep one open across requests, on SQLite to a file already moved)."""
        from django.db import connection

        connection.close()
        response = getattr(self.client, method)(url, body, content_type="application/json")
        return {"status": response.status_code, "retry_after": response.get("Retry-After")}

    def keep_two_workers(self) -> None:
        """Replaces a killed worker, or one that exited on its own (noted in `exits`), as a
        supervisor would (compose restarts them), before the next job (none after the last
        kill); two at once start in about the time of one."""
        from backend.core.local_worker import LOG_TAIL_CHARACTERS

        for worker in [worker for worker in self.workers if worker.process.poll() is not None]:
            self.exits.append(
                {
                    "worker": worker.name,
                    "exit": worker.process.returncode,
                    "noticed_after_job": self.job_id,
                    "log_end": worker.log()[-LOG_TAIL_CHARACTERS:],
                }
            )
            self.workers.remove(worker)
        missing = 2 - len(self.workers)
        with ThreadPoolExecutor(max_workers=2) as pool:
            self.workers += pool.map(lambda _: self.start_worker(), range(missing))

    def start_job(self, name: str) -> tuple[int, int]:
        from backend.alignments.services.pre_alignments import (
            parameter_set_get_or_create,
            pre_align_start,
        )

        self.keep_two_workers()
        parameter_set = parameter_set_get_or_create(
            project=self.project, name=name, params=self.params, engine_version="bench"
        )
        job = pre_align_start(
            actor=self.lead,
            project=self.project,
            documents=self.documents,
            parameter_set=parameter_set,
        )
        return job.pk, parameter_set.pk

    def wait_until_idle(self) -> None:
        """Until the vector training the imports queued is done, so a job starts at once."""
        from backend.jobs.models import Job

        deadline = time.monotonic() + JOB_DEADLINE_SECONDS
        while Job.objects.exclude(status__in=FINISHED).exists():
            if time.monotonic() > deadline:
                raise TimeoutError("the imports' jobs did not finish")
            time.sleep(0.5)

    def wait_for_first_document(self, job_id: int) -> None:
        self.job_id = job_id
        self.wait_until(lambda job: job["progress"] > 0 or job["status"] in FINISHED)

    def worker_running(self, job_id: int):
        """The worker that stamped the job: its first stamp comes within a heartbeat."""
        from backend.jobs.models import Job

        self.wait_until(lambda job: job["worker"] != "" or job["status"] in FINISHED)
        hostname = Job.objects.values_list("worker", flat=True).get(pk=job_id)
        return next(worker for worker in self.workers if worker.name == hostname)

    def wait_until(self, condition) -> float:
        """The moment `condition` holds of the job's row, read as the API reads it; reads
        that fail (the database is down) are tried again."""
        from django.db import close_old_connections

        from backend.core.database_outage import DATABASE_ERRORS
        from backend.jobs.models import Job

        deadline = time.monotonic() + JOB_DEADLINE_SECONDS
        while time.monotonic() < deadline:
            try:
                job = (
                    Job.objects.filter(pk=self.job_id)
                    .values("status", "progress", "requeues", "worker")
                    .get()
                )
            except DATABASE_ERRORS:
                close_old_connections()
                job = None
            if job is not None and condition(job):
                return time.monotonic()
            if all(worker.process.poll() is not None for worker in self.workers):
                raise RuntimeError(f"every worker exited; {self.state()}")
            time.sleep(0.2)
        raise TimeoutError(f"job {self.job_id} stuck for {JOB_DEADLINE_SECONDS} s; {self.state()}")

    def state(self) -> str:
        """The job's row and the end of each worker's log: what a stuck job's report needs, as
        the stack's folder is gone by the time anybody reads it."""
        from backend.core.local_worker import LOG_TAIL_CHARACTERS
        from backend.jobs.models import Job

        job = (
            Job.objects.filter(pk=self.job_id)
            .values(
                "status",
                "progress",
                "message",
                "requeues",
                "retries",
                "celery_task_id",
                "started_at",
                "heartbeat_at",
                "worker",
            )
            .first()
        )
        logs = "\n".join(
            f"--- worker {worker.name} (exit {worker.process.poll()}):\n"
            f"{worker.log()[-LOG_TAIL_CHARACTERS:]}"
            for worker in self.workers
        )
        return f"job {job}, at {time.strftime('%H:%M:%S')}\n{logs}"

    def verdict(self, job_id: int, parameter_set_id: int, **figures: Any) -> dict[str, Any]:
        """The job's end and whether it holds what the issue asks."""
        from backend.alignments.models import PreAlignment
        from backend.jobs.models import Job

        job = Job.objects.get(pk=job_id)
        per_document = Counter(
            PreAlignment.objects.filter(parameter_set_id=parameter_set_id).values_list(
                "document_id", flat=True
            )
        )
        ended_right = job.status == Job.Status.SUCCEEDED or (
            job.status == Job.Status.FAILED and bool(job.error)
        )
        complete = job.status != Job.Status.SUCCEEDED or set(per_document) == {
            document.pk for document in self.documents
        }
        checks = {
            "ended_right": ended_right,
            "no_duplicate": all(count == 1 for count in per_document.values()) and complete,
            "answers_right": figures.pop("answers_right", True),
            "next_job_right": figures.pop("next_job_right", True),
        }
        return {
            "status": job.status,
            "error": job.error,
            **({"worker_log": self.log_lines_of(job_id)} if job.error else {}),
            "requeues": job.requeues,
            "retries": job.retries,
            **{
                key: round(value, 1) if isinstance(value, float) else value
                for key, value in figures.items()
            },
            **checks,
            "checks_pass": all(checks.values()),
        }

    def log_lines_of(self, job_id: int) -> list[str]:
        """What the workers logged of a failed job, with the traceback that follows: the job's
        own error names no exception (backend/jobs/services.py, `unexpected_failure`)."""
        marker = f"Job {job_id} "
        lines: list[str] = []
        for log_path in sorted(Path(self.services["root"], "logs").glob("*.log")):
            log = log_path.read_text(errors="replace").splitlines()
            for index, line in enumerate(log):
                if marker in line:
                    lines += log[index : index + 40]
        return lines[-200:]


FINISHED = ("succeeded", "failed", "cancelled")


if __name__ == "__main__":
    main()
