"""The embedded broker's transport: a reader sees whole messages or none."""

from __future__ import annotations

import multiprocessing

import pytest
from celery.worker import state as worker_state
from kombu import Connection

from backend.core.broker_transport import UNFINISHED_SUFFIX, AtomicFilesystemTransport


@pytest.fixture
def connection(tmp_path):
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "control"),
        "polling_interval": 0.001,
    }
    with Connection(transport=AtomicFilesystemTransport, transport_options=options) as conn:
        yield conn, folder


def test_a_message_lands_whole_under_the_name_the_reader_looks_for(connection):
    conn, folder = connection
    queue = conn.SimpleQueue("jobs")
    queue.put({"document": 7, "text": "x" * 100_000})
    names = [path.name for path in folder.iterdir()]
    assert len(names) == 1
    assert names[0].endswith(".jobs.msg")
    assert queue.get(timeout=1).payload == {"document": 7, "text": "x" * 100_000}
    queue.close()


def test_a_file_still_being_written_is_not_taken(connection):
    conn, folder = connection
    (folder / f"1_abc.jobs.msg{UNFINISHED_SUFFIX}").write_bytes(b"")
    queue = conn.SimpleQueue("jobs")
    with pytest.raises(queue.Empty):
        queue.get(timeout=0.2)
    queue.close()


def test_a_worker_asked_to_stop_takes_no_new_message(connection, monkeypatch):
    """Celery's loop for this transport waits for messages once more after a warm shutdown was
    asked for: that wait takes nothing and ends at once, not at its timeout."""
    conn, _ = connection
    queue = conn.SimpleQueue("stopping")
    queue.put({"document": 7})
    monkeypatch.setattr(worker_state, "should_stop", 0)  # what SIGTERM sets: exit code 0
    with pytest.raises(queue.Empty):
        queue.get(timeout=600)
    monkeypatch.undo()
    assert queue.get(timeout=1).payload == {"document": 7}, "the message waits for a worker"
    queue.close()


def _send(transport_options: dict, payload: dict, count: int) -> None:
    with Connection(
        transport=AtomicFilesystemTransport, transport_options=transport_options
    ) as conn:
        writer = conn.SimpleQueue("race")
        for _ in range(count):
            writer.put(payload)
        writer.close()


def test_a_reader_racing_a_writer_process_never_sees_a_partial_message(connection):
    conn, _ = connection
    # Serialising this takes milliseconds: kombu's own transport does it after creating the
    # message file, which is the window a polling reader in another process falls into.
    payload = {"rows": [{"row": row, "text": "y"} for row in range(50_000)]}
    sent, received = 20, []
    writer = multiprocessing.get_context("fork").Process(
        target=_send, args=(conn.transport_options, payload, sent)
    )
    reader = conn.SimpleQueue("race")
    writer.start()
    try:
        while len(received) < sent:
            received.append(reader.get(timeout=30).payload)
    finally:
        writer.join(timeout=30)
        reader.close()
    assert all(message == payload for message in received)


def test_a_folder_gone_reads_as_an_empty_queue_until_it_comes_back(connection):
    """Kombu's own reader raises the listing's error, which stops a Celery worker for good."""
    conn, folder = connection
    # A queue name of its own: kombu keeps the filesystem transport's bindings process-wide.
    queue = conn.SimpleQueue("outage")
    queue.put({"document": 8})
    away = folder.rename(folder.with_name("away"))

    with pytest.raises(queue.Empty):
        queue.get(timeout=0.2)

    away.rename(folder)
    assert queue.get(timeout=1).payload == {"document": 8}
    queue.close()
