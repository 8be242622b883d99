"""A local worker that cannot start says why in the error itself: its log may be in a folder
gone by the time somebody reads the message (a bench's temporary stack)."""

import pytest

from backend.core.local_worker import WorkerDidNotStart, start_local_worker


@pytest.mark.worker
def test_a_worker_that_exits_at_start_quotes_its_log(tmp_path):
    with pytest.raises(WorkerDidNotStart) as failed:
        start_local_worker(
            tmp_path, concurrency=1, env={"DJANGO_SETTINGS_MODULE": "no_such_settings"}
        )

    assert "The worker exited with" in str(failed.value)
    assert "No module named 'no_such_settings'" in str(failed.value)
