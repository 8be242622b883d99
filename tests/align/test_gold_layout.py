"""Own gold for the engine: the corpus package's own folder reads as the corpus does, and
cross-validation folds are whole documents drawn by a recorded seed."""

from __future__ import annotations

import pytest

from workers.align.corpus import load_public_meetings
from workers.align.folds import cv_folds
from workers.align.public_meetings_layout import LayoutError, read_gold

public_meetings = pytest.importorskip("public_meetings")


def test_the_package_folder_reads_as_the_corpus_with_its_reference_and_pre_alignment() -> None:
    gold = read_gold(public_meetings.data_root)
    corpus = load_public_meetings()
    assert [m.id for m in gold] == [m.id for m in corpus]
    for own, reference in zip(gold, corpus, strict=True):
        assert own.reference == reference.reference
        assert own.initial == reference.initial
        assert [t.sentences for t in own.transcript.turns] == [
            t.sentences for t in reference.transcript.turns
        ]
        assert [s.sentences for s in own.report.segments] == [
            s.sentences for s in reference.report.segments
        ]


def test_a_folder_without_meetings_is_refused(tmp_path) -> None:
    with pytest.raises(LayoutError, match=r"holds no <hash>\.aligned\.pckl"):
        read_gold(tmp_path)


def test_a_file_that_is_not_json_is_refused(tmp_path) -> None:
    path = tmp_path / "gold.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(LayoutError, match="not a readable UTF-8 JSON file"):
        read_gold(path)


def test_folds_partition_the_documents_evenly_and_depend_only_on_the_seed() -> None:
    ids = [f"doc-{i}" for i in range(11)]
    folds = cv_folds(ids, 3, seed=42)
    assert sorted(doc for fold in folds for doc in fold) == sorted(ids)
    assert sorted(len(fold) for fold in folds) == [3, 4, 4]
    assert cv_folds(list(reversed(ids)), 3, seed=42) == folds
    assert cv_folds(ids, 3, seed=43) != folds


@pytest.mark.parametrize("k", [1, 12])
def test_fold_counts_outside_two_to_the_document_count_are_refused(k: int) -> None:
    with pytest.raises(ValueError, match="between 2 and 11 folds"):
        cv_folds([f"doc-{i}" for i in range(11)], k, seed=0)
