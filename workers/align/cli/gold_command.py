"""`gold check FILE` and `gold from-csv`: writing and checking a gold of one's own files
(docs/gold-format.md); the options are in `main`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workers.align.cli.errors import DataError
from workers.align.gold_files import gold_documents, gold_from_csv
from workers.align.own_files import meeting_name, read_meeting
from workers.align.public_meetings_layout import LayoutError


def command_gold_check(args: argparse.Namespace) -> int:
    try:
        documents, left_out = gold_documents(args.file)
    except LayoutError as error:
        named = str(error) if error.where == str(args.file) else f"{args.file}: {error}"
        raise DataError(f"{named} The layout is in docs/gold-format.md.") from error
    if args.json:
        print(json.dumps({"documents": [d.as_dict() for d in documents], "left_out": left_out}))
        return 0
    print(
        f"{args.file}: {len(documents)} document(s) with gold, as evaluate --gold and tune "
        "--gold read them" + (f"; {left_out} without a final side left out" if left_out else "")
    )
    for document in documents:
        print(
            f"  {document.key}: {document.turns} turns ({document.unaligned_turns} unaligned) "
            f"on {document.segments_used} of {document.segments} segments"
        )
    if len(documents) < 2:
        print("  cross-validation (--cv K) needs 2 documents or more", file=sys.stderr)
    return 0


def command_gold_from_csv(args: argparse.Namespace) -> int:
    name = args.name or meeting_name(args.report)
    meeting = read_meeting(name, args.report, list(args.transcript), args.language)
    document = gold_from_csv(name, meeting.report, meeting.transcript, args.csv)
    gold = _existing_gold(args.out) if args.out.exists() else {}
    replaced = name in gold
    gold.update(document)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(gold, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    documents, _ = gold_documents(args.out)
    summary = next(document for document in documents if document.key == name)
    print(
        f"{'replaced' if replaced else 'added'} {name} in {args.out}: {summary.turns} turns "
        f"({summary.unaligned_turns} unaligned) on {summary.segments_used} of "
        f"{summary.segments} segments; {len(gold)} document(s) in the file"
    )
    return 0


def _existing_gold(path: Path) -> dict:
    try:
        gold = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataError(
            f"--out {path}: exists and is not a gold file ({error}); give another --out"
        ) from error
    if not isinstance(gold, dict):
        raise DataError(f"--out {path}: exists and is not a gold file; give another --out")
    return gold
