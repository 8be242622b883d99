"""A project exported by the web application (`exports/public-meetings.json`, through the
test client and a real database) is the engine's own gold: `evaluate --gold` and
`tune --gold`, with K-fold cross-validation by document."""

import json
import re

import pytest
from rest_framework.test import APIClient

from tests.align.cli_refusal import refusal
from tests.domain import make_document
from tests.exports.conftest import body
from tests.tasks.conftest import SMALL_MEETINGS, gold_project
from workers.align.cli.commands import evaluation_report
from workers.align.cli.main import main
from workers.align.folds import cv_folds
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_and_decide, corpus_vectors, fit_learned_decision
from workers.align.public_meetings_layout import read_gold

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(tmp_path):
    """Four public_meetings meetings with gold and one document without, exported."""
    project, lead, _ = gold_project(4)
    make_document(project, name="no gold yet")
    client = APIClient()
    client.force_login(lead)
    path = tmp_path / "public-meetings.json"
    path.write_bytes(
        body(client.get(f"/api/v1/projects/{project.pk}/exports/public-meetings.json"))
    )
    return path


def run(capsys, *arguments: str) -> dict:
    assert main([*arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_evaluating_the_export_gives_the_corpus_figures(exported, tmp_path, capsys):
    params = tmp_path / "diagonal.json"
    params.write_text(json.dumps({"params": {"aligner": "diagonal"}}))

    own = run(capsys, "evaluate", "--gold", str(exported), "--params", str(params))
    corpus = run(
        capsys, "evaluate", "--meetings", ",".join(SMALL_MEETINGS), "--params", str(params)
    )

    assert own["protocol"]["documents"] == 4, "the document without gold is left out"
    assert own["per_meeting"] == corpus["per_meeting"]
    assert own["micro_average"] == corpus["micro_average"]


def test_cross_validation_never_scores_a_document_with_parameters_tuned_on_it(
    exported, tmp_path, capsys
):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"abstention.min_words": [0, 3, 50]}))
    arguments = ["evaluate", "--gold", str(exported), "--cv", "2", "--grid", str(grid)]

    first = run(capsys, *arguments, "--seed", "3")
    again = run(capsys, *arguments, "--seed", "3")

    cv = first["protocol"]["cross_validation"]
    assert (cv["k"], cv["seed"]) == (2, 3)
    assert [fold["test"] for fold in cv["folds"]] == cv_folds(SMALL_MEETINGS, 2, 3)
    for fold in cv["folds"]:
        assert not set(fold["test"]) & set(fold["tuned_on"])
        assert sorted(fold["test"] + fold["tuned_on"]) == sorted(SMALL_MEETINGS)
    assert sorted(first["per_meeting"]) == sorted(SMALL_MEETINGS)
    assert again == first, "the recorded seed draws the same folds and figures"
    other_draws = {tuple(map(tuple, cv_folds(SMALL_MEETINGS, 2, seed))) for seed in range(8)}
    assert len(other_draws) > 1, "the seed does choose the folds"


def test_cross_validating_the_learned_decision_decides_each_fold_with_the_others_gold_only(
    exported, tmp_path, capsys
):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"aligner": ["turns"], "turns.match_offset": [0.1, 0.3]}))
    arguments = [
        "evaluate",
        "--gold",
        str(exported),
        "--cv",
        "2",
        "--seed",
        "3",
        "--grid",
        str(grid),
    ]

    path_only = run(capsys, *arguments)
    learned = run(capsys, *arguments, "--learn")

    meetings = {meeting.id: meeting for meeting in read_gold(exported)}
    vectors = corpus_vectors(list(meetings.values()), AlignmentParams().vectors)
    cv = learned["protocol"]["cross_validation"]
    assert cv["learned_decision"]
    assert path_only["protocol"]["cross_validation"]["learned_decision"] is False
    for fold in cv["folds"]:
        params = AlignmentParams.from_dict(fold["params"])
        decision = fit_learned_decision([meetings[i] for i in fold["tuned_on"]], params, vectors)
        assert fold["learned"] == json.loads(json.dumps(decision.summary()))
        for meeting_id in fold["test"]:
            decided = align_and_decide(meetings[meeting_id], params, vectors, decision)
            alone = evaluation_report([(meetings[meeting_id], decided)])
            assert learned["per_meeting"][meeting_id] == alone["micro_average"]
    assert all("learned" not in fold for fold in path_only["protocol"]["cross_validation"]["folds"])
    calibrated, heuristic = learned["confidence"], path_only["confidence"]
    assert (
        calibrated["turns"]
        == heuristic["turns"]
        == sum(len(meeting.transcript.turns) for meeting in meetings.values())
    )
    assert calibrated["reliability"] != heuristic["reliability"]

    assert main([*arguments, "--learn"]) == 0
    printed = capsys.readouterr().out
    for number, fold in enumerate(cv["folds"], 1):
        kept = "kept" if fold["learned"]["corrections_kept"] else "refused"
        assert f"fold {number} ({len(fold['test'])} documents): corrections {kept}" in printed
    assert f"AUROC {calibrated['auroc']:.3f}, expected calibration error" in printed


def test_learning_is_evaluated_only_by_cross_validation_of_the_turn_path(
    exported, tmp_path, capsys
):
    status, said = refusal(capsys, ["evaluate", "--gold", str(exported), "--learn"])
    assert (status, "give --gold and --cv" in said) == (2, True)
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"aligner": ["turns", "hmm"]}))
    status, said = refusal(
        capsys, ["evaluate", "--gold", str(exported), "--cv", "2", "--grid", str(grid), "--learn"]
    )
    assert status == 2
    assert re.search(r"learns from the turn path's evidence.*not hmm", said)


def test_tune_on_the_export_records_its_gold_and_held_out_figures(exported, tmp_path, capsys):
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"abstention.min_words": [0, 3]}))
    out = tmp_path / "params.json"

    summary = run(capsys, "tune", "--gold", str(exported), "--grid", str(grid), "--cv", "2",
                  "--out", str(out))  # fmt: skip

    saved = json.loads(out.read_text())["metadata"]
    assert saved["gold"] == str(exported)
    assert saved["tuned_on"] == sorted(SMALL_MEETINGS)
    held_out = saved["cross_validation"]
    assert held_out["micro_average"]["meetings"] == 4
    assert summary["cross_validation"] == held_out["micro_average"]
    assert {fold["params"]["abstention"]["min_words"] for fold in held_out["folds"]} <= {0, 3}


def test_a_file_without_gold_is_refused_by_name(tmp_path, capsys):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"m": {"initial": {"doc": [{"id": "0_0_0", "text": "a"}],
                                                  "ctm": [{"id": "0_0_0", "text": "b",
                                                           "aligned": ""}]}}}))  # fmt: skip
    status, said = refusal(capsys, ["evaluate", "--gold", str(path)])
    assert status == 1
    assert f"--gold {path}: has no meeting with gold" in said
