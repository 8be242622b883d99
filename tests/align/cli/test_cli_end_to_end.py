"""align + evaluate on four real meetings with the shipped cross-fitted defaults.

Word vectors are trained on the corpus texts once per machine (about half a minute) and then
read from the on-disk cache.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.align.cli_refusal import refusal
from workers.align.cli.main import main

MEETINGS = "0b9ec6,2f3f95,686239,5860bd"


def test_align_writes_one_entry_per_turn_with_corpus_ids(tmp_path, capsys, raw_meetings):
    assert (
        main(
            [
                "align",
                "--corpus",
                "public_meetings",
                "--meetings",
                MEETINGS,
                "--out",
                str(tmp_path),
                "--json",
            ]
        )
        == 0
    )
    written = json.loads(capsys.readouterr().out)["written"]
    assert len(written) == 4
    for path in written:
        meeting_id = path.rsplit("/", 1)[1].removesuffix(".json")
        final = raw_meetings[meeting_id]["final"]
        entries = json.loads(Path(path).read_text(encoding="utf-8"))["ctm"]
        assert [e["id"] for e in entries] == [turn["id"] for turn in final["ctm"]]
        doc_ids = {doc["id"] for doc in final["doc"]} | {""}
        assert all(e["aligned"] in doc_ids for e in entries)
        assert all(0.0 <= e["confidence"] <= 1.0 for e in entries)


def test_evaluate_beats_the_paper_on_these_meetings(capsys):
    assert main(["evaluate", "--meetings", MEETINGS, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["micro_average"]
    assert figures["turns"] == 270
    paper_best_embeddings = {"segment_accuracy": 69.36, "word_accuracy": 79.06, "windowdiff": 15.09}
    assert figures["segment_accuracy"] > paper_best_embeddings["segment_accuracy"]
    assert figures["word_accuracy"] > paper_best_embeddings["word_accuracy"]
    assert figures["windowdiff"] < paper_best_embeddings["windowdiff"]


def test_diagonal_baseline_through_a_params_file(tmp_path, capsys):
    params = tmp_path / "diagonal.json"
    params.write_text(json.dumps({"params": {"aligner": "diagonal"}}))
    assert main(["evaluate", "--meetings", MEETINGS, "--params", str(params), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["micro_average"]
    assert 40.0 <= figures["segment_accuracy"] <= 65.0


def test_confidence_ranks_correct_turns_above_wrong_ones():
    import numpy as np

    from workers.align.corpus import load_public_meetings, meeting_ids
    from workers.align.folds import shipped_defaults
    from workers.align.pipeline import align_meeting, corpus_vectors

    meetings = load_public_meetings([*MEETINGS.split(","), "4b926f", "839e92"])
    params = {m.id: shipped_defaults(m.id, meeting_ids()) for m in meetings}
    vectors = corpus_vectors(load_public_meetings(), params[meetings[0].id].vectors)
    confidences, correct = [], []
    for meeting in meetings:
        result = align_meeting(meeting, params[meeting.id], vectors)
        confidences.append(result.confidence)
        correct.append(result.labels == np.array(meeting.reference))
    confidence, hit = np.concatenate(confidences), np.concatenate(correct)
    low, high = confidence <= np.median(confidence), confidence > np.median(confidence)
    assert hit[high].mean() > hit[low].mean() + 0.1


def test_tune_evaluates_every_setting_on_every_training_meeting_unless_told(tmp_path, capsys):
    grid = tmp_path / "grid.json"
    grid.write_text(
        json.dumps(
            {
                "aligner": ["gapped"],
                "scoring.method": ["tfidf"],
                "gapped.match_offset": [0.1, 0.3],
            }
        )
    )
    out = tmp_path / "tuned.json"
    train = "0b9ec6,2f3f95"
    assert main(["tune", "--train", train, "--grid", str(grid), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["settings"] == 2
    metadata = json.loads(out.read_text())["metadata"]
    assert (metadata["stages"], metadata["grid"]) == ("2:0", str(grid))
    assert metadata["training_summary"]["meetings"] == 2

    grid.write_text(json.dumps({"aligner": ["dp"], "gapped.match_offset": [0.1]}))
    status, said = refusal(
        capsys, ["tune", "--train", train, "--grid", str(grid), "--out", str(out)]
    )
    assert status == 1
    assert f"--grid {grid}: " in said
    assert "tries no gapped aligner" in said
