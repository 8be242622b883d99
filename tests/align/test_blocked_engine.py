"""The engine reading similarities in blocks gives exactly the labels and confidences of the
engine reading the whole matrix at once, on every public_meetings meeting.

The reference is the whole (transcript sentences, report sentences) matrix scored in one
call and read as one block: the engine before it learnt blocks. The engine under test scores
and reduces rows in blocks of at most 2**21 sentence pairs (the default reads up to 2**24,
which holds every single meeting whole), so the larger meetings are cut into up to eight
blocks, and a document of joined meetings into more.
"""

from __future__ import annotations

import numpy as np
import pytest

from workers.align.corpus import joined_meeting, load_public_meetings, meeting_ids
from workers.align.folds import defaults_file, shipped_defaults
from workers.align.layout import sentence_layout
from workers.align.params import AlignmentParams, load_params
from workers.align.paths.blocks import Blocking
from workers.align.pipeline import align_meeting, align_scores, corpus_vectors, meeting_scorer
from workers.align.scoring.similarity import similarity_matrix

SMALL_BLOCKS = Blocking(max_pairs=2**21)
WHOLE = Blocking(max_pairs=2**62)
MEETINGS = meeting_ids()
LARGEST = "199073d27fc61f6a76cb1f9c1d977aa6"
"""14.8 M sentence pairs (3,331 x 4,445), eight blocks here."""


@pytest.fixture(scope="module")
def corpus():
    meetings = {meeting.id: meeting for meeting in load_public_meetings()}
    vectors = corpus_vectors(list(meetings.values()), load_params(defaults_file("a")).vectors)
    return meetings, vectors


def _configurations(meeting_id: str) -> dict[str, AlignmentParams]:
    """The shipped turn path (the meeting's cross-fitted defaults), the same with a baseline
    (read in the blocks' own pass), and each sentence-level aligner that reads the matrix."""
    shipped = shipped_defaults(meeting_id, MEETINGS)
    return {
        "turns": shipped,
        "turns_baseline": shipped.with_changes({"turns.baseline_quantile": 0.9}),
        "gapped": shipped.with_changes({"aligner": "gapped", "gapped.match_offset": 0.2}),
        "dp": shipped.with_changes({"aligner": "dp"}),
    }


def _whole_matrix_result(meeting, params, vectors):
    layout = sentence_layout(meeting)
    scores = similarity_matrix(
        layout.transcript_sentences, layout.report_sentences, params.scoring, vectors
    )
    return align_scores(scores, layout, params, WHOLE)


@pytest.mark.parametrize("configuration", ["turns", "turns_baseline", "gapped", "dp"])
@pytest.mark.parametrize("meeting_id", MEETINGS)
def test_blocks_give_the_whole_matrix_labels_and_confidences(corpus, meeting_id, configuration):
    meetings, vectors = corpus
    meeting = meetings[meeting_id]
    params = _configurations(meeting_id)[configuration]
    expected = _whole_matrix_result(meeting, params, vectors)
    got = align_meeting(meeting, params, vectors, SMALL_BLOCKS)
    np.testing.assert_array_equal(got.labels, expected.labels)
    np.testing.assert_array_equal(got.confidence, expected.confidence)


def test_joined_meetings_cut_into_many_blocks_align_as_the_whole(corpus):
    """Five meetings as one document (4,599 x 4,028 sentences, 18.5 M pairs, nine blocks, each
    boundary inside a turn), with the parameters for new documents."""
    meetings, vectors = corpus
    joined = joined_meeting(
        [
            meetings[i]
            for i in MEETINGS
            if i[:6] in ("2130e2", "4b926f", "5062c3", "686239", "744c8e")
        ]
    )
    params = load_params(defaults_file("a"))
    layout = sentence_layout(joined)
    assert len(SMALL_BLOCKS.row_blocks(*meeting_scorer(layout, params.scoring, vectors).shape)) == 9
    expected = _whole_matrix_result(joined, params, vectors)
    got = align_meeting(joined, params, vectors, SMALL_BLOCKS)
    np.testing.assert_array_equal(got.labels, expected.labels)
    np.testing.assert_array_equal(got.confidence, expected.confidence)
    assert (got.labels >= 0).mean() > 0.5, "a document that aligns nothing would prove little"


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"scoring.window_size": 3, "scoring.window_overlap": 1},
        {"scoring.method": "tfidf"},
    ],
)
def test_vector_scores_in_blocks_are_the_whole_product_bit_for_bit(corpus, changes):
    """Blocks' products are the whole product's, bit for bit: BLAS multiplies the same fixed
    ranges of windows whichever block asks (scoring.similarity.PRODUCT_ROWS)."""
    meetings, vectors = corpus
    params = load_params(defaults_file("a")).with_changes(changes)
    layout = sentence_layout(meetings[LARGEST])
    scorer = meeting_scorer(layout, params.scoring, vectors)
    whole = scorer.rows(0, scorer.shape[0])
    blocks = SMALL_BLOCKS.row_blocks(*scorer.shape)
    assert len(blocks) == 8
    for start, stop in blocks:
        np.testing.assert_array_equal(scorer.rows(start, stop), whole[start:stop])


@pytest.mark.parametrize(("start", "stop"), [(0, 1), (1, 2), (97, 355), (255, 257), (300, 1000)])
def test_any_range_of_vector_scores_is_the_whole_products_rows(corpus, start, stop):
    """Ranges that cut the fixed product ranges anywhere, down to one sentence."""
    meetings, vectors = corpus
    params = load_params(defaults_file("a"))
    scorer = meeting_scorer(sentence_layout(meetings[LARGEST]), params.scoring, vectors)
    whole = scorer.rows(0, scorer.shape[0])
    assert scorer.shape[0] > stop
    np.testing.assert_array_equal(scorer.rows(start, stop), whole[start:stop])
