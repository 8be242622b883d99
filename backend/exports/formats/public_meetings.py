"""A project in the layout of the public_meetings package: one JSON object mapping each
meeting's key to `{"initial": side, "final": side}`, where a side is
`{"doc": [{"id": "0_<i>_0", "text", "validated"}], "ctm": [{"id": "0_<j>_0", "text",
"aligned", "validated"}]}` and `aligned` is a doc id or "" for an unaligned turn.

- `initial` is the document's current pre-alignment (every turn unaligned when it has none).
- `final` is its gold, present only when the document has one; its items are `validated`,
  and each turn says whether its annotators accepted it unread in the editor's review mode
  (`accepted_without_review`), so a user of the corpus can leave those turns out.
- Extra keys, which public_meetings readers ignore, keep what the layout has no place for:
  on items `key` (the reader's id), `speaker`, and on turns `start`, `end` and (initial
  side) `confidence`; per meeting, `tandem` holds the document's name, source, iteration
  and where its pre-alignment came from.

`workers.align.public_meetings_layout` writes each side (`layout_side`) and reads this back
(and the package's own data).
"""

import json
from collections.abc import Iterator
from typing import Any

from backend.alignments.models import PreAlignment
from backend.curation.public_meetings import meeting_of_source
from backend.exports.selectors import DocumentDump, document_dumps
from workers.align.document_model import UNALIGNED
from workers.align.public_meetings_layout import layout_side


def public_meetings_pieces(*, project_id: int) -> Iterator[bytes]:
    yield b"{"
    for index, dump in enumerate(document_dumps(project_id=project_id)):
        key = json.dumps(meeting_key(dump.head.source, dump.head.id), ensure_ascii=False)
        entry = json.dumps(_entry(dump), ensure_ascii=False, sort_keys=True)
        yield f"{',' if index else ''}{key}:{entry}".encode()
    yield b"}\n"


def meeting_key(source: str, document_id: int) -> str:
    """The package's keys are bare meeting hashes: documents that came from it keep theirs."""
    return meeting_of_source(source) or f"document-{document_id}"


def _entry(dump: DocumentDump) -> dict[str, Any]:
    pre_alignment = dump.pre_alignment
    initial_labels = pre_alignment.labels if pre_alignment else [UNALIGNED] * len(dump.turns)
    entry: dict[str, Any] = {
        "initial": layout_side(
            dump.segments,
            dump.turns,
            initial_labels,
            confidences=pre_alignment.confidences if pre_alignment else [],
            validated=False,
        ),
        "tandem": {
            "name": dump.head.name,
            "source": dump.head.source,
            "iteration": dump.head.iteration,
            "pre_alignment": _provenance(pre_alignment),
        },
    }
    if dump.gold is not None:
        entry["final"] = layout_side(
            dump.segments,
            dump.turns,
            dump.gold,
            accepted_without_review=dump.accepted_without_review,
            validated=True,
        )
    return entry


def _provenance(pre_alignment: PreAlignment | None) -> dict[str, Any] | None:
    if pre_alignment is None:
        return None
    parameter_set = pre_alignment.parameter_set
    return {
        "parameter_set": parameter_set.name if parameter_set else None,
        "params": pre_alignment.params,
        "engine_version": pre_alignment.engine_version,
    }
