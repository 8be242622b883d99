"""`tune --learn` stores a learned decision beside the parameters it was fitted with, and
`align --params` applies it: each turn's confidence is the calibrated probability."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from workers.align.cli.main import main
from workers.align.corpus import load_public_meetings
from workers.align.learning.turn_decision import MIN_GOLD_DOCUMENTS, load_learned
from workers.align.params import load_params
from workers.align.pipeline import align_meeting, corpus_vectors, turn_evidence

TRAIN = "0b9ec6,2f3f95,686239,e61c5b,74172c"
"""As few documents as the engine fits a decision from (`learned.MIN_GOLD_DOCUMENTS`)."""
ALIGNED = "5860bd"


def test_tune_learn_stores_a_decision_that_align_applies(tmp_path, capsys):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"aligner": ["turns"], "turns.match_offset": [0.2, 0.3]}))
    params_file = tmp_path / "tuned.json"
    arguments = ["tune", "--train", TRAIN, "--grid", str(grid), "--out", str(params_file)]
    assert main([*arguments, "--learn", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["learned"]["held_out"]["path_turn_hits"] > 0
    learned = load_learned(params_file)
    assert learned is not None
    params = load_params(params_file)

    out = tmp_path / "aligned"
    arguments = ["align", "--meetings", ALIGNED, "--params", str(params_file), "--out", str(out)]
    assert main([*arguments, "--json"]) == 0
    written = json.loads(capsys.readouterr().out)["written"]
    entries = json.loads(Path(written[0]).read_text(encoding="utf-8"))["ctm"]

    (meeting,) = load_public_meetings([ALIGNED])
    vectors = corpus_vectors(load_public_meetings(), params.vectors)
    labels, probability = learned.decide(turn_evidence(meeting, params, vectors)[1])
    np.testing.assert_array_equal([entry["confidence"] for entry in entries], probability.round(4))
    values = learned.calibration.values
    assert learned.calibration.interpolate
    assert values.min() <= probability.min()
    assert probability.max() <= values.max()
    heuristic = align_meeting(meeting, params, vectors).confidence
    assert not np.allclose(probability, heuristic)
    segments = [segment.id for segment in meeting.report.segments]
    expected = [segments[label] if label >= 0 else "" for label in labels]
    assert [entry["aligned"] for entry in entries] == expected


def test_tune_learn_on_too_little_gold_stores_no_decision_and_says_why(tmp_path, capsys):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"aligner": ["turns"], "turns.match_offset": [0.2]}))
    params_file = tmp_path / "tuned.json"
    few = ",".join(TRAIN.split(",")[: MIN_GOLD_DOCUMENTS - 1])
    arguments = ["tune", "--train", few, "--grid", str(grid), "--out", str(params_file)]

    assert main([*arguments, "--learn", "--json"]) == 0

    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert "learned" not in summary
    assert summary["learned_refused"]["code"] == "too_few_documents"
    assert f"no learned decision stored in {params_file}" in captured.err
    assert f"holds {MIN_GOLD_DOCUMENTS - 1} documents" in captured.err
    assert load_params(params_file).aligner == "turns"
    assert load_learned(params_file) is None
