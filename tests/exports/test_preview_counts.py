"""The export preview sums stored per-unit counts instead of cleaning texts: it must say
exactly what filtering the export's own records says, for every cleaning and filter, on real
meetings with gold of one and of two annotators and an automatic pre-alignment, and after the
gold changes."""

import itertools
from collections import Counter

import pytest

from backend.agreement.aligned import aligned_documents
from backend.curation.models import GoldState
from backend.curation.selectors import gold_decision
from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from backend.exports.models import UnitCounts
from backend.exports.selectors import (
    PairOutcome,
    export_preview,
    preview_summary,
)
from backend.exports.unit_counts import cleaning_key, unit_counts
from backend.projects.models import Membership, Role
from tests.domain import make_user
from tests.exports.conftest import corpus_final_labels, submit_gold
from tests.exports.test_agreement_exports import doubly  # noqa: F401 (a fixture)
from tests.exports.test_filters import give_confidences
from workers.align.document_model import UNALIGNED, Report, Segment, Transcript, Turn
from workers.align.pairs import shape
from workers.align.pairs.cleaning import Cleaning, clean
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import candidates, cleaning_of

CLEANING_OPTIONS = ("remove_tags", "remove_speaker_names", "remove_headings", "remove_unk")
CLEANINGS = [
    dict(zip(CLEANING_OPTIONS, flags, strict=True))
    for flags in itertools.product((False, True), repeat=4)
]
FILTERS = [
    {},
    {"include_automatic": True},
    {"include_automatic": True, "min_confidence": 0.5, "min_agreement": 95.0},
    {"include_automatic": True, "min_words": 0, "max_words": 60, "min_sentences": 2},
    {"min_words": 25, "max_sentences": 8, "valid_ratio": 0.5, "test_ratio": 0.5},
]


def preview_from_records(project_id: int, options: ExportOptions) -> dict:
    """The preview by its definition: every candidate record the export builds, filtered."""
    documents: Counter[str] = Counter()
    outcomes: Counter[PairOutcome] = Counter()
    for document in aligned_documents(project_id=project_id, options=options):
        documents[document.origin] += 1
        outcomes.update(
            PairOutcome(document.origin, document.split, document.meeting, candidate.rejected_by)
            for candidate in candidates(document, options)
        )
    return preview_summary(
        project_id=project_id, options=options, documents=documents, outcomes=outcomes
    )


@pytest.mark.django_db
def test_the_preview_from_stored_counts_equals_filtering_the_records(corpus, doubly):  # noqa: F811
    give_confidences(corpus)
    automatic_pairs, filters_that_removed = 0, set()
    for cleaning, filters in itertools.product(CLEANINGS, FILTERS):
        options = ExportOptions(**cleaning, **filters)
        expected = preview_from_records(corpus.project.pk, options)
        assert export_preview(project_id=corpus.project.pk, options=options) == expected, options
        automatic_pairs += expected["pairs_before_filters"]["automatic"]
        filters_that_removed |= {step["filter"] for step in expected["filters"] if step["removed"]}
    assert automatic_pairs > 0
    assert filters_that_removed == set(shape.FILTERS)
    assert UnitCounts.objects.filter(document__project=corpus.project).count() == 3 * len(CLEANINGS)


@pytest.mark.django_db
def test_the_preview_follows_a_change_of_gold(corpus):
    """A second annotator disagrees: the document waits for adjudication and is no gold."""
    options = ExportOptions(min_words=0, min_sentences=0)
    before = export_preview(project_id=corpus.project.pk, options=options)
    document = corpus.gold[0]
    changed = corpus_final_labels(document)
    aligned = [turn for turn, label in enumerate(changed) if label != UNALIGNED]
    for turn in aligned[: len(aligned) // 2]:
        changed[turn] = UNALIGNED
    second = make_user("preview-second")
    Membership.objects.create(project=corpus.project, user=second, role=Role.ANNOTATOR)
    document.assignees.add(second)
    submit_gold(second, document, changed)
    assert gold_decision(document=document).state == GoldState.NEEDS_ADJUDICATION

    after = export_preview(project_id=corpus.project.pk, options=options)

    assert after == preview_from_records(corpus.project.pk, options)
    assert after["pairs"]["gold"] < before["pairs"]["gold"]


@pytest.mark.django_db
def test_stored_counts_are_each_units_cleaned_words_and_sentences(corpus):
    cleaning = Cleaning(remove_speaker_names=True, remove_unk=True)
    document: Document = corpus.gold[1]
    counts = unit_counts(document_ids=[document.pk], cleaning=cleaning)[document.pk]
    stored = UnitCounts.objects.get(document=document, cleaning=cleaning_key(cleaning))
    assert stored.cleaning == "remove_speaker_names,remove_unk"
    for texts, measured in (
        (document.turns.order_by("position").values_list("text", flat=True), counts.turns),
        (document.segments.order_by("position").values_list("text", flat=True), counts.segments),
    ):
        cleaned = [clean(text, cleaning) for text in texts]
        assert measured.tolist() == [[text.words, text.sentences] for text in cleaned]
    assert cleaning_of(ExportOptions(remove_speaker_names=True, remove_unk=True)) == cleaning


@pytest.mark.django_db
def test_storing_texts_stores_the_pages_counts_and_drops_those_of_earlier_texts(corpus):
    document: Document = corpus.pre_aligned
    stored_at_import = UnitCounts.objects.filter(document=document)
    assert list(stored_at_import.values_list("cleaning", flat=True)) == [""]
    unit_counts(document_ids=[document.pk], cleaning=Cleaning(remove_tags=True))

    document_store_parsed(
        document=document,
        report=Report(
            segments=(Segment("s1", "deux mots", ("deux mots",), None, 0),), source="test"
        ),
        transcript=Transcript(
            turns=(
                Turn("t1", "un. deux trois", ("un", "deux trois"), None, None, None, 0),
                Turn("t2", "<unk> quatre", ("<unk> quatre",), None, None, None, 1),
            ),
            source="test",
        ),
    )

    stored = UnitCounts.objects.get(document=document)
    assert stored.cleaning == ""
    counts = unit_counts(document_ids=[document.pk], cleaning=Cleaning())[document.pk]
    for texts, measured in (
        (["un. deux trois", "<unk> quatre"], counts.turns),
        (["deux mots"], counts.segments),
    ):
        cleaned = [clean(text, Cleaning()) for text in texts]
        assert measured.tolist() == [[text.words, text.sentences] for text in cleaned]
