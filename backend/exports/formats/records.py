"""The flat pair records as JSON Lines and as CSV (RFC 4180, a header row, `\\r\\n`).

Both carry `pairs.FIELDS` in that order. In CSV, list fields are JSON arrays and a missing
value (no iteration, no timing, no confidence) is an empty cell.
"""

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from backend.exports.pairs import FIELDS


def json_line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def jsonl_pieces(records: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    for record in records:
        yield json_line(record)


def csv_pieces(records: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(FIELDS)
    for record in records:
        writer.writerow(_cell(record[field]) for field in FIELDS)
        yield buffer.getvalue().encode()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue().encode()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    return value
