"""Kombu's filesystem transport with atomic writes: the embedded default's broker.

Kombu writes a message file in place under an advisory lock that its reader never takes, and
the reader moves any file whose name ends in ``<queue>.msg`` the moment it lists the folder. A
worker polling every 0.1 s can therefore take a message before its sender has written it, read
an empty file and die on the JSON error (seen in the test suite). Here the sender writes under
a name the reader ignores and renames the finished file into place; a rename within one folder
is atomic, so a reader sees a whole message or none.

Kombu's transport also waits out the whole `drain_events` timeout when no message comes, and
Celery's loop for transports without an event loop (this one) runs one more such wait after a
warm shutdown was asked for: an idle worker took about 4 s to notice SIGTERM, and could take a
new message meanwhile. Here the wait ends within a polling interval once the worker stops.

Kombu's reader also lets the error of a folder it cannot list (its volume detached, the data
folder moved) escape, which Celery takes for an unrecoverable error: every worker stopped at
once. Here such a folder reads as an empty queue, with a warning: workers wait for it to come
back, and the tasks they are running go on.
"""

from __future__ import annotations

import logging
import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from celery.worker import state as worker_state
from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

UNFINISHED_SUFFIX = ".unfinished"

logger = logging.getLogger(__name__)


class AtomicFilesystemChannel(filesystem.Channel):
    folder_unreachable = False
    """Whether the last look at the queue's folder failed, so an outage is logged once."""

    # kombu calls `_put(queue, message, **kwargs)`; its stubs know only the first two.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Put `payload` onto `queue`, named as kombu names it so its reader finds it."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        unfinished = final + UNFINISHED_SUFFIX
        try:
            with open(unfinished, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(unfinished, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        """The next message, or Empty, also while the folder cannot be read."""
        try:
            message = super()._get(queue)
        except Empty:
            self.folder_unreachable = False
            raise
        except OSError as error:
            if not self.folder_unreachable:
                logger.warning("The broker's folder cannot be read; waiting for it: %s", error)
            self.folder_unreachable = True
            raise Empty() from error
        self.folder_unreachable = False
        return message


def worker_stopping() -> bool:
    """Whether this process is a Celery worker asked to shut down (warm or cold). Celery's
    flags hold an exit code once set, 0 included."""
    return any(
        flag is not None and flag is not False
        for flag in (worker_state.should_stop, worker_state.should_terminate)
    )


class AtomicFilesystemTransport(filesystem.Transport):
    Channel = AtomicFilesystemChannel

    # kombu calls `drain_events(connection, timeout=...)`; its stubs know only `**kwargs`.
    def drain_events(self, connection: Any, timeout: float | None = None) -> None:  # type: ignore[override]
        """Kombu's wait for the next message, a polling interval at a time, given up (as a
        timeout) as soon as the worker is asked to stop."""
        deadline = None if timeout is None else monotonic() + timeout
        while True:
            if worker_stopping():
                raise TimeoutError()
            wait = self.polling_interval or 0.1
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - monotonic()))
            try:
                return super().drain_events(connection, timeout=wait)
            except TimeoutError:
                if deadline is not None and monotonic() >= deadline:
                    raise


def use_for_filesystem_urls() -> None:
    """Make `filesystem://` broker URLs mean this transport, so the URL alone still chooses
    the broker (Celery's `broker_transport` setting would override a `redis://` URL too)."""
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:AtomicFilesystemTransport"
