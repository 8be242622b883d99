"""The flat pair records as JSON Lines and as CSV (RFC 4180, a header row, `\\r\\n`).

Both carry `pairs.record_fields(options)` in that order. In CSV, list fields are JSON arrays
and a missing value (no iteration, no timing, no confidence, no agreement) is an empty cell.
A text cell that a spreadsheet would run as a formula (OWASP's CSV injection rule: it starts
with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so a document named
`=HYPERLINK(...)` opens as text; JSON Lines carry every text unchanged.
"""

import csv
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from workers.align.pairs.shape import FIELDS

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def json_line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def jsonl_pieces(records: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    for record in records:
        yield json_line(record)


def csv_pieces(
    records: Iterable[dict[str, Any]], fields: Sequence[str] = FIELDS
) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(fields)
    for record in records:
        writer.writerow(_cell(record[field]) for field in fields)
        yield buffer.getvalue().encode()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue().encode()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value
