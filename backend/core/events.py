"""Domain events: how a lower app lets the apps above it react to a change ("when a document's
texts are stored, reset the export's counts") without importing them, so that every app
imports only apps below it (docs/architecture.md).

An app declares what happens to its data as frozen dataclasses in its own `events.py` and
calls `publish` where it happens; an app above subscribes a receiver in its AppConfig's
`ready()`. `publish` calls the receivers at once, in the publisher's transaction, in the order
they subscribed (the order of INSTALLED_APPS), so a refresh that must be part of the write
(the gold beside a submission) stays part of it; a receiver whose work must wait for the
commit (queueing a job) defers it itself with `transaction.on_commit`.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar


@dataclass(frozen=True)
class Event:
    """What happened, in the publishing app's words; subclasses are frozen dataclasses."""


E = TypeVar("E", bound=Event)

_receivers: dict[type[Event], list[Callable[[Any], None]]] = {}


def subscribe(event_type: type[E], receiver: Callable[[E], None]) -> None:
    """Call `receiver` on every `event_type` published from now on; subscribing the same
    receiver twice (a second `ready()` in the tests) keeps one."""
    receivers = _receivers.setdefault(event_type, [])
    if receiver not in receivers:
        receivers.append(receiver)


def publish(event: Event) -> None:
    for receiver in _receivers.get(type(event), ()):
        receiver(event)
