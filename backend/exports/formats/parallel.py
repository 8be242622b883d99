"""Parallel text for OpenNMT-py and fairseq: `<split>.src` (transcript side) and
`<split>.tgt` (report side), line n of one the pair of line n of the other, in a zip with a
README that records the request.

Each split is read once: sources go straight into the archive while targets wait in a
spooled temporary file (memory up to `SPOOL_BYTES`, then disk), so both files of a split come
from the same reading of the data and always line up.
"""

import json
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO

from backend.exports.selectors import export_records
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.split import SPLITS, Split

SPOOL_BYTES = 4 * 1024 * 1024
FILE_PREFIX: dict[Split, str] = {"train": "train", "validation": "valid", "test": "test"}


def parallel_members(
    *, project_id: int, options: ExportOptions, title: str
) -> Iterator[tuple[str, Iterable[bytes]]]:
    counts: dict[str, int] = {}
    for split in SPLITS:
        spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 - closed below
        prefix = FILE_PREFIX[split]
        yield f"{prefix}.src", _sources(project_id, options, split, spool, counts)
        yield f"{prefix}.tgt", _spooled(spool)
    yield "README.md", _readme(title, options, counts)


def _sources(
    project_id: int, options: ExportOptions, split: Split, spool: IO[bytes], counts: dict
) -> Iterator[bytes]:
    counts[split] = 0
    for record in export_records(project_id=project_id, options=options, splits=[split]):
        yield (record["source"] + "\n").encode()
        spool.write((record["target"] + "\n").encode())
        counts[split] += 1


def _spooled(spool: IO[bytes]) -> Iterator[bytes]:
    with spool:
        spool.seek(0)
        while data := spool.read(1024 * 1024):
            yield data


def _readme(title: str, options: ExportOptions, counts: dict) -> Iterator[bytes]:
    lines = [
        f"# {title}: parallel text",
        "",
        "Line n of `<split>.src` (transcript turns) is the source of line n of `<split>.tgt`",
        "(the report segment). Splits are by meeting: `train`, `valid`, `test`.",
        "",
        *(f"- {FILE_PREFIX[split]}: {counts.get(split, 0)} pairs" for split in SPLITS),
        "",
        "Request (the export's options, to request the same bytes again):",
        "",
        "```json",
        json.dumps(options.as_dict(), indent=2, sort_keys=True),
        "```",
        "",
    ]
    yield "\n".join(lines).encode()
