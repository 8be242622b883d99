"""Row ids as requests carry them: in a path, a query string or a body, an id above what a
bigint column holds is an unknown id (404 in a path, 400 elsewhere), never an OverflowError
from the database driver (SQLite raises one for integers at or above 2^63)."""

from collections.abc import Iterator, Sequence
from typing import TypeVar

from backend.core.errors import InvalidInput

ID_MAX = 2**63 - 1
"""The largest bigint: every primary key is one, on SQLite and PostgreSQL alike."""
COUNT_MAX = 2**31 - 1
"""The largest value of a PositiveIntegerField column on PostgreSQL (versions, seconds)."""


class IdConverter:
    """`<id:name>` in URL patterns: digits naming at most ID_MAX; a larger number matches no
    route, so the answer is 404 as for any unknown id."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError(f"{value} is above the largest id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def parse_id(value: str, *, field: str) -> int:
    """An id in a query string."""
    try:
        number = int(value)
    except ValueError as error:
        raise InvalidInput(f"{field} must be an id, got {value!r}.", field=field) from error
    if not 1 <= number <= ID_MAX:
        raise InvalidInput(f"{field} must be an id within 1..{ID_MAX}.", field=field)
    return number


T = TypeVar("T")

IDS_PER_BATCH = 200
"""Documents read together by selectors that go through a whole project: few enough that a
batch's texts and labels stay small, many enough that queries per document vanish."""


def batches(items: Sequence[T], size: int | None = None) -> Iterator[Sequence[T]]:
    size = size or IDS_PER_BATCH
    for start in range(0, len(items), size):
        yield items[start : start + size]
