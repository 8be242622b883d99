"""The podcast paper's salience rule on public_meetings treated as podcasts, as JSON
(`python -m bench.salience_quality`).

Each meeting's CTM words (read from the raw files, which have word times; the corpus's own
turns have none) are cut into 30-second windows, and each window is labelled salient when
its ROUGE-2 recall against some sentence of the meeting's report is above tau = 0.2, the
paper's value, not tuned here. Gold: a window is salient when it holds a word of a turn the
reference aligns to a report segment. CTM turns are matched to the reference's turns by text
(the reference's sub-turns `0_<j>_<z>` joined back into turn j); a window holding words of
unmatched turns only and no aligned one has no gold and is left out (383fa9's last recording
parts, which the corpus leaves out, are most of them).
"""

from __future__ import annotations

import difflib
import json
import time
from dataclasses import dataclass

from workers.align.corpus import item_position, load_public_meetings, meeting_ids, raw_files
from workers.align.document_model import UNALIGNED, Meeting, Transcript
from workers.align.podcasts.salience import SalienceConfig, label_agreement, label_units
from workers.align.podcasts.time_windows import WindowConfig, window_transcript
from workers.align.readers import read_transcript

WINDOW_SECONDS = 30.0


def aligned_ctm_turns(meeting: Meeting, transcript: Transcript) -> list[bool | None]:
    """Per CTM turn: whether the reference aligns it (any of its sub-turns), None when no
    reference turn has its text."""
    assert meeting.reference is not None
    merged: dict[int, tuple[list[str], bool]] = {}
    for turn, label in zip(meeting.transcript.turns, meeting.reference, strict=True):
        position = item_position(turn.id)
        assert position is not None
        texts, aligned = merged.setdefault(position, ([], False))
        texts.append(turn.text)
        merged[position] = (texts, aligned or label != UNALIGNED)
    reference = [(" ".join(texts), aligned) for texts, aligned in merged.values()]
    matcher = difflib.SequenceMatcher(
        None, [turn.text for turn in transcript.turns], [text for text, _ in reference], False
    )
    labels: list[bool | None] = [None] * len(transcript.turns)
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            labels[block.a + offset] = reference[block.b + offset][1]
    return labels


def window_gold(transcript: Transcript, windows: Transcript, turns: list[bool | None]) -> list:
    """Per window: True when it holds a word of an aligned turn, False when all its words
    come from matched unaligned turns, None (no gold) otherwise."""
    turn_of_word = {id(word): turns[turn.index] for turn in transcript.turns for word in turn.words}
    gold: list[bool | None] = []
    for window in windows.turns:
        labels = [turn_of_word[id(word)] for word in window.words]
        if any(labels):
            gold.append(True)
        elif labels and all(label is False for label in labels):
            gold.append(False)
        else:
            gold.append(None)
    return gold


def meeting_labels(meeting: Meeting, config: SalienceConfig) -> tuple[dict, list[Labelled]]:
    _, parts = raw_files(meeting.id)
    transcript = read_transcript(parts)
    windows = window_transcript(transcript, WindowConfig(WINDOW_SECONDS))
    turns = aligned_ctm_turns(meeting, transcript)
    gold = window_gold(transcript, windows, turns)
    sentences = [s for segment in meeting.report.segments for s in segment.sentences]
    automatic = label_units([window.text for window in windows.turns], sentences, config)
    facts = {
        "windows": len(windows.turns),
        "report_sentences": len(sentences),
        "ctm_turns": len(turns),
        "ctm_turns_matched": sum(label is not None for label in turns),
    }
    return facts, [
        Labelled(label.salient, label.candidate, true)
        for label, true in zip(automatic, gold, strict=True)
    ]


@dataclass(frozen=True)
class Labelled:
    salient: bool
    candidate: bool
    gold: bool | None


def scores(labelled: list[Labelled]) -> dict:
    """The rule's agreement with gold over the windows that have gold, beside the trivial rule
    calling every window salient (whose precision is the gold positive ratio)."""
    known = [item for item in labelled if item.gold is not None]
    gold = [bool(item.gold) for item in known]
    agreement = label_agreement([item.salient for item in known], gold)
    everything = label_agreement([True] * len(known), gold)
    return {
        "windows": len(labelled),
        "rouge_positive_ratio": _ratio(sum(item.salient for item in labelled), len(labelled)),
        "windows_with_gold": len(known),
        "gold_positive_ratio": _ratio(sum(gold), len(known)),
        "precision": _rounded(agreement.precision),
        "recall": _rounded(agreement.recall),
        "f1": _rounded(agreement.f1),
        "true_positives": agreement.true_positives,
        "false_positives": agreement.false_positives,
        "false_negatives": agreement.false_negatives,
        "true_negatives": agreement.true_negatives,
        "every_window_salient_f1": _rounded(everything.f1),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def main() -> dict:
    started = time.perf_counter()
    config = SalienceConfig()
    every: list[Labelled] = []
    per_meeting = {}
    for meeting in load_public_meetings(meeting_ids()):
        facts, labelled = meeting_labels(meeting, config)
        every.extend(labelled)
        per_meeting[meeting.id] = {**facts, **scores(labelled)}
    return {
        "tau": config.tau,
        "window_seconds": WINDOW_SECONDS,
        "meetings": len(per_meeting),
        "all_windows": scores(every),
        "candidate_windows": scores([item for item in every if item.candidate]),
        "per_meeting": per_meeting,
        "seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
