"""The domain-event hook (backend/core/events.py): receivers run at once, in the order they
subscribed, inside the publisher's transaction."""

from dataclasses import dataclass

import pytest
from django.db import transaction

from backend.core.events import Event, publish, subscribe
from backend.documents.events import DocumentBatchChanged, DocumentTextsStored


@dataclass(frozen=True)
class Counted(Event):
    number: int


def test_receivers_run_in_the_order_they_subscribed_and_once_each():
    heard: list[tuple[str, int]] = []

    def first(event: Counted) -> None:
        heard.append(("first", event.number))

    def second(event: Counted) -> None:
        heard.append(("second", event.number))

    subscribe(Counted, first)
    subscribe(Counted, second)
    subscribe(Counted, first)
    publish(Counted(1))
    assert heard == [("first", 1), ("second", 1)]


def test_an_event_nobody_subscribed_to_is_published_to_nobody():
    @dataclass(frozen=True)
    class Unheard(Event):
        pass

    publish(Unheard())


def test_the_apps_above_subscribe_when_django_starts():
    from backend.core.events import _receivers

    def owners(event_type: type[Event]) -> list[str]:
        return [receiver.__module__ for receiver in _receivers.get(event_type, [])]

    assert owners(DocumentTextsStored) == ["backend.vectors.receivers", "backend.exports.receivers"]
    assert owners(DocumentBatchChanged) == ["backend.curation.receivers"]


@pytest.mark.django_db(transaction=True)
def test_a_receiver_runs_inside_the_publishers_transaction():
    """So that what it writes commits or rolls back with the write that published the event."""

    @dataclass(frozen=True)
    class Published(Event):
        pass

    atomic: list[bool] = []
    subscribe(Published, lambda event: atomic.append(transaction.get_connection().in_atomic_block))
    publish(Published())
    with transaction.atomic():
        publish(Published())
    assert atomic == [False, True]
