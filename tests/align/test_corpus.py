from __future__ import annotations

import numpy as np
import pytest

from workers.align.corpus import (
    UNCORRECTED_REFERENCE,
    corrected_turns,
    load_public_meetings,
    meeting_ids,
)
from workers.align.document_model import UNALIGNED

SUB_TURN_MEETING = "b78722729506f09ba2a2cf9fae5d291e"


def test_all_22_meetings_load_sorted_by_id() -> None:
    meetings = load_public_meetings()
    assert len(meetings) == 22
    assert [meeting.id for meeting in meetings] == meeting_ids() == sorted(meeting_ids())


def test_corpus_sizes_match_the_benchmark_description() -> None:
    meetings = load_public_meetings()
    assert sum(len(m.report.segments) for m in meetings) == 2359
    assert sum(len(m.transcript.turns) for m in meetings) == 7758
    unaligned = sum(label == UNALIGNED for m in meetings for label in m.reference)
    assert unaligned == 1278
    assert all(label != UNALIGNED for m in meetings for label in m.initial)


def test_labels_are_report_positions_matching_the_doc_ids(raw_meetings: dict) -> None:
    meeting = load_public_meetings(["0b9ec6f0"])[0]
    final_turns = raw_meetings[meeting.id]["final"]["ctm"]
    for turn, label, raw in zip(
        meeting.transcript.turns, meeting.reference, final_turns, strict=True
    ):
        assert turn.id == raw["id"]
        expected = meeting.report.segments[label].id if label != UNALIGNED else ""
        assert raw["aligned"] == expected
    assert [segment.index for segment in meeting.report.segments] == list(
        range(len(meeting.report.segments))
    )


def test_sub_turns_inherit_the_initial_label_of_their_parent_turn(raw_meetings: dict) -> None:
    meeting = load_public_meetings([SUB_TURN_MEETING])[0]
    initial_parent = next(
        turn for turn in raw_meetings[SUB_TURN_MEETING]["initial"]["ctm"] if turn["id"] == "0_20_0"
    )
    parent_label = int(initial_parent["aligned"].split("_")[1])
    sub_turn_positions = [
        position
        for position, turn in enumerate(meeting.transcript.turns)
        if turn.id.startswith("0_20_")
    ]
    assert len(sub_turn_positions) == 5
    assert {meeting.initial[position] for position in sub_turn_positions} == {parent_label}
    assert len(meeting.initial) == len(meeting.reference) == len(meeting.transcript.turns)


def test_segments_and_turns_carry_tag_free_sentences() -> None:
    meeting = load_public_meetings(["0b9ec6f0"])[0]
    first = meeting.report.segments[0]
    assert first.speaker == "une intervenante ( mathilde )"
    assert first.text.startswith("<h> salon des maires")
    assert first.sentences[0] == "salon des maires d' ile-de-france"
    assert not any("<" in s for m in [meeting] for t in m.transcript.turns for s in t.sentences)


def test_sentence_totals_match_the_benchmark_description() -> None:
    meetings = load_public_meetings()
    report_sentences = sum(len(s.sentences) for m in meetings for s in m.report.segments)
    transcript_sentences = sum(len(t.sentences) for m in meetings for t in m.transcript.turns)
    assert 23_000 < report_sentences < 25_000
    assert 26_000 < transcript_sentences < 28_000


def test_unknown_or_ambiguous_meeting_names_are_refused() -> None:
    with pytest.raises(KeyError):
        load_public_meetings(["not-a-meeting"])


def test_the_reference_returns_to_the_reports_opening_once_in_the_corpus() -> None:
    """398ab01c's restart at turn 208 is the one place where the reference goes back more than
    a few segments; the other order breaks are annotators' small slips."""
    restarts = []
    for meeting in load_public_meetings():
        labels = np.asarray(meeting.reference)
        aligned = np.flatnonzero(labels != UNALIGNED)
        drops = labels[aligned[:-1]] - labels[aligned[1:]]
        assert drops.max() <= 5 or meeting.id in UNCORRECTED_REFERENCE
        restarts += [(meeting.id, int(aligned[i + 1])) for i in np.flatnonzero(drops > 5)]
    assert restarts == [("398ab01c54479bcd841b467dadca1222", 208)]


@pytest.mark.parametrize("meeting_id", sorted(UNCORRECTED_REFERENCE))
def test_uncorrected_reference_turns_repeat_the_pre_alignment_after_the_restart(
    meeting_id: str,
) -> None:
    """Exactly the turns from the restart on whose label repeats the pre-alignment and gives a
    segment that turns before the restart already have."""
    meeting = load_public_meetings([meeting_id])[0]
    labels, initial = np.asarray(meeting.reference), np.asarray(meeting.initial)
    restart = UNCORRECTED_REFERENCE[meeting_id][0].start
    before = labels[:restart][labels[:restart] != UNALIGNED]
    after = np.arange(restart, len(labels))
    repeats = after[(labels[after] == initial[after]) & np.isin(labels[after], before)]
    assert np.flatnonzero(~corrected_turns(meeting)).tolist() == repeats.tolist()
    assert [i for run in UNCORRECTED_REFERENCE[meeting_id] for i in run] == repeats.tolist()


def test_the_uncorrected_run_gives_an_opening_speech_ten_times_its_length() -> None:
    meeting = load_public_meetings(["398ab01c"])[0]
    labels = np.asarray(meeting.reference)
    speech = meeting.report.segments[1]
    words = np.array([turn.word_count for turn in meeting.transcript.turns])
    assert (labels[UNCORRECTED_REFERENCE[meeting.id][0]] == 1).sum() == 310
    assert words[labels == 1].sum() > 10 * len(speech.text.split())


def test_every_turn_of_other_meetings_counts_as_corrected() -> None:
    for meeting in load_public_meetings():
        if meeting.id not in UNCORRECTED_REFERENCE:
            assert corrected_turns(meeting).all()
