"""Locust users for the benches: annotators (bench/api_load.py) and leads
(bench/many_documents.py --clients).

`Annotator`, with its own token and annotation: `editor` loads the largest public_meetings
document's editor payload; `update` sends bulk assignment edits, keeping the version it
edited from (a 409 would be a failure: each user owns its annotation, so none is expected).
`Lead` reads, one after another in a random order, the list, dashboard and preview
endpoints of a project of thousands of documents."""

import json
import os
import random
from pathlib import Path

from locust import FastHttpUser, between, events, tag, task

SETUP = json.loads(Path(os.environ["TANDEM_BENCH_SETUP"]).read_text())
_next_user = iter(range(len(SETUP.get("tokens", []))))
_REQUEST_LOG = os.environ.get("TANDEM_BENCH_REQUEST_LOG")

if _REQUEST_LOG:
    # Open as long as locust runs: it exits with the process.
    _request_log = open(_REQUEST_LOG, "w", buffering=1)  # noqa: SIM115

    @events.request.add_listener
    def _log_request(name, response_time, start_time, exception, **_) -> None:
        """One line a request (sent at, name, milliseconds, failed), so that the bench can
        tell the clients' simultaneous start from the steady state."""
        _request_log.write(
            f"{start_time:.4f}\t{name}\t{response_time:.3f}\t{int(bool(exception))}\n"
        )


THINK_TIME = between(
    float(os.environ.get("TANDEM_BENCH_WAIT_MIN", "0.5")),
    float(os.environ.get("TANDEM_BENCH_WAIT_MAX", "1.5")),
)


class Annotator(FastHttpUser):
    wait_time = THINK_TIME

    def on_start(self) -> None:
        index = next(_next_user)
        self.headers = {"Authorization": f"Token {SETUP['tokens'][index]}"}
        self.document_url = SETUP["document_url"]
        self.version = 0
        self.turns = SETUP["turns"]

    @tag("editor")
    @task
    def load_editor(self) -> None:
        with self.client.get(
            f"{self.document_url}editor/",
            headers=self.headers,
            name="editor load",
            catch_response=True,
        ) as response:
            if response.status_code != 200 or not response.content.endswith(b"}"):
                response.failure(f"status {response.status_code}")

    @tag("update")
    @task
    def bulk_update(self) -> None:
        first = random.randrange(self.turns - 5)
        action = random.choice(["unalign", "reset"])
        body = {
            "version": self.version,
            "operations": [{"action": action, "first_turn": first, "last_turn": first + 4}],
            "seconds_spent": 1,
        }
        with self.client.post(
            f"{self.document_url}annotation/",
            json=body,
            headers=self.headers,
            name="bulk update",
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                self.version = response.json()["version"]
            else:
                response.failure(f"status {response.status_code}: {response.text[:200]}")


class Lead(FastHttpUser):
    wait_time = THINK_TIME

    def on_start(self) -> None:
        self.headers = {"Authorization": f"Token {SETUP['lead_token']}"}

    @task
    def read_a_page(self) -> None:
        endpoint = random.choice(SETUP["lead_endpoints"])
        with self.client.get(
            SETUP["project_url"] + endpoint,
            headers=self.headers,
            name=endpoint,
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
