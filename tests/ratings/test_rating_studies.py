"""Rating studies through the API on real meetings: drawing, what each role sees, rating,
undo, and the results' figures."""

import json

import pytest

from backend.ratings.models import RatingAssignment, RatingItem
from tests.ratings.conftest import create_study
from workers.align.annotation.rating import wilson_interval


def rate_all(study, who: str, answer_of) -> int:
    client = study.client(who)
    rated = 0
    while True:
        payload = client.get(f"{study.url}/next/").json()
        if payload["pair"] is None:
            return rated
        assignment = RatingAssignment.objects.get(pk=payload["pair"]["assignment"])
        response = client.post(
            f"{study.url}/ratings/",
            {"assignment": assignment.pk, "answer": answer_of(assignment.item)},
            format="json",
        )
        assert response.status_code == 200, response.json()
        rated += 1


def test_a_study_draws_stratified_automatic_pairs_and_gold_controls(study):
    items = RatingItem.objects.filter(study_id=study.id)
    automatic = items.filter(origin="automatic")
    detail = study.client("lead").get(study.url + "/").json()

    assert automatic.count() == 10
    assert items.filter(origin="control").count() == 4
    assert len(detail["bins"]) == 5
    assert sorted(automatic.values_list("bin_index", flat=True)) == sorted([0, 1, 2, 3, 4] * 2)
    for item in automatic:
        bin_ = detail["bins"][item.bin_index]
        assert bin_["low"] <= item.confidence <= bin_["high"]
    assert set(items.filter(origin="control").values_list("document_id", flat=True)) <= {
        document.pk for document in study.corpus.gold
    }
    assert detail["items"] == 14
    assert detail["assignments"] == 28
    assert detail["seed"] == 7


def test_the_same_seed_draws_the_same_study(study):
    again = create_study(study.corpus, [study.first_rater, study.second_rater])

    def drawn(study_id):
        return [
            (i.document_id, i.segment_position, i.origin)
            for i in RatingItem.objects.filter(study_id=study_id).order_by("id")
        ]

    assert drawn(again["id"]) == drawn(study.id)


def test_raters_see_their_own_pairs_without_confidence_or_origin(study):
    payload = study.client("first_rater").get(f"{study.url}/next/").json()
    text = json.dumps(payload)

    assert payload["total"] == 14
    assert payload["done"] == 0
    assert "confidence" not in text
    assert "origin" not in text
    assert "automatic" not in text
    assignment = RatingAssignment.objects.get(pk=payload["pair"]["assignment"])
    assert assignment.rater == study.first_rater
    in_pair = [turn["position"] for turn in payload["pair"]["turns"] if turn["in_pair"]]
    assert in_pair == assignment.item.turn_positions
    assert len(payload["pair"]["turns"]) > len(in_pair)
    listed = study.client("first_rater").get(f"{study.corpus.url}/rating-studies/assigned/")
    assert [s["id"] for s in listed.json()["results"]] == [study.id]
    assert set(listed.json()["results"][0]) == {"id", "name", "created_at", "done", "total"}
    assert (listed.json()["results"][0]["done"], listed.json()["results"][0]["total"]) == (0, 14)


def test_who_may_do_what(study):
    bystander = study.client("bystander")
    assert bystander.get(f"{study.url}/next/").status_code == 404
    assert bystander.post(f"{study.url}/undo/").status_code == 404
    assert bystander.get(f"{study.corpus.url}/rating-studies/assigned/").json()["count"] == 0
    for who in ("bystander", "first_rater"):
        client = study.client(who)
        assert client.get(f"{study.corpus.url}/rating-studies/").status_code == 403
        assert client.get(f"{study.url}/").status_code == 403
        assert client.get(f"{study.url}/results/").status_code == 403
    first_assignment = study.client("first_rater").get(f"{study.url}/next/").json()["pair"]
    others = RatingAssignment.objects.filter(item__study_id=study.id, rater=study.second_rater)
    refused = study.client("first_rater").post(
        f"{study.url}/ratings/",
        {"assignment": others.first().pk, "answer": "yes"},
        format="json",
    )
    assert first_assignment is not None
    assert refused.status_code == 404
    outsider = study.client("lead")
    outsider.force_login(study.corpus.annotator)
    assert outsider.get(f"{study.url}/next/").status_code == 404


def test_rating_moves_on_and_undo_brings_the_pair_back(study):
    client = study.client("first_rater")
    first = client.get(f"{study.url}/next/").json()["pair"]

    after = client.post(
        f"{study.url}/ratings/",
        {"assignment": first["assignment"], "answer": "partly", "note": "one turn extra"},
        format="json",
    ).json()
    again = client.post(
        f"{study.url}/ratings/", {"assignment": first["assignment"], "answer": "no"}, format="json"
    )
    undone = client.post(f"{study.url}/undo/").json()

    assert after["done"] == 1
    assert after["pair"]["assignment"] != first["assignment"]
    assert again.status_code == 409
    assert undone["done"] == 0
    assert undone["pair"]["assignment"] == first["assignment"]
    assert client.post(f"{study.url}/undo/").status_code == 409


def test_bad_input_is_refused_by_name(study):
    lead = study.corpus.client()
    url = f"{study.corpus.url}/rating-studies/"
    base = {"name": "x", "sample_size": 5, "raters_per_pair": 1}
    stranger = lead.post(url, {**base, "raters": [10**6]}, format="json")
    too_many = lead.post(
        url, {**base, "raters": [study.first_rater.pk], "raters_per_pair": 2}, format="json"
    )
    controls = lead.post(
        url, {**base, "raters": [study.first_rater.pk], "controls": 10**4}, format="json"
    )
    answer = study.client("first_rater").post(
        f"{study.url}/ratings/", {"assignment": 1, "answer": "maybe"}, format="json"
    )

    assert stranger.status_code == 400
    assert "members" in stranger.json()["detail"]
    assert too_many.status_code == 400
    assert "raters_per_pair" in too_many.json()["detail"]
    assert controls.status_code == 400
    assert "gold pairs" in controls.json()["detail"]
    assert answer.status_code == 400
    assert "answer" in json.dumps(answer.json())


def test_results_per_bin_agreement_controls_and_threshold(study):
    def good_when_confident(item):
        if item.origin == "control":
            return "yes"
        return "yes" if item.bin_index >= 2 else "no"

    rate_all(study, "first_rater", good_when_confident)
    rate_all(study, "second_rater", lambda item: "no" if item.origin == "control" else "yes")
    results = study.client("lead").get(f"{study.url}/results/").json()

    assert results["ratings"] == results["assignments"] == 28
    for bin_ in results["bins"]:
        assert bin_["ratings"] == 4
        expected_yes = 1.0 if bin_["index"] >= 2 else 0.5
        assert bin_["yes"]["share"] == expected_yes
        low, high = bin_["yes"]["interval"]
        assert low <= expected_yes <= high
        # Two sampled pairs are the trials, not four ratings.
        assert (low, high) == pytest.approx(wilson_interval(2 * expected_yes, 2))
    flags = {row["rater"]: row["flagged"] for row in results["controls"]}
    assert flags == {"first-rater": False, "second-rater": True}
    assert results["alpha"] is not None
    assert results["alpha"] < 0
    # Target 0.9: from bin 1's more confident pair up, one half-yes pair weighs against six
    # all-yes pairs, each weighted by its bin's population over its two rated pairs.
    confidences = sorted(
        RatingItem.objects.filter(study_id=study.id, bin_index=1).values_list(
            "confidence", flat=True
        )
    )
    weights = [bin_["population"] / 2 for bin_ in results["bins"]]
    expected_share = (weights[1] * 0.5 + 2 * sum(weights[2:])) / (weights[1] + 2 * sum(weights[2:]))
    assert results["recommended_min_confidence"] == confidences[-1]
    assert results["recommended_yes_share"] == pytest.approx(expected_share)
    assert [point["estimated_yes_share"] for point in results["curve"][2:]] == [1.0, 1.0, 1.0]
