"""The batch-selection policies against naive definitions written out turn by turn and pair by
pair."""

import math
import random

import numpy as np
import pytest

from workers.align.annotation.selection import (
    UncertaintyMeasure,
    diversity_choice,
    document_vector,
    random_choice,
    uncertainty_choice,
)


def naive_expected_errors(confidences: list[float]) -> float:
    total = 0.0
    for confidence in confidences:
        total += 1.0 - confidence
    return total


def naive_cosine(left: list[float], right: list[float]) -> float:
    dot = sum(a * b for a, b in zip(left, right, strict=True))
    norms = math.sqrt(sum(a * a for a in left)) * math.sqrt(sum(b * b for b in right))
    return dot / norms if norms else 0.0


def naive_farthest_first(candidates: list[list[float]], gold: list[list[float]], size: int):
    """Centre on the mean of all documents, then repeatedly take the candidate whose highest
    cosine with anything taken (gold or chosen) is lowest; with no gold, start from the
    candidate of highest mean cosine with the other candidates."""
    everything = candidates + gold
    centre = [sum(column) / len(everything) for column in zip(*everything, strict=True)]
    centred = [[a - c for a, c in zip(row, centre, strict=True)] for row in candidates]
    centred_gold = [[a - c for a, c in zip(row, centre, strict=True)] for row in gold]
    chosen: list[int] = []
    if not gold:
        typical = [
            sum(naive_cosine(row, other) for j, other in enumerate(centred) if j != i)
            / (len(centred) - 1)
            for i, row in enumerate(centred)
        ]
        chosen.append(max(range(len(centred)), key=lambda i: (typical[i], -i)))
    while len(chosen) < min(size, len(candidates)):
        taken = centred_gold + [centred[i] for i in chosen]
        best, best_nearest = None, math.inf
        for i, row in enumerate(centred):
            if i in chosen:
                continue
            nearest = max(naive_cosine(row, other) for other in taken)
            if nearest < best_nearest:
                best, best_nearest = i, nearest
        chosen.append(best)
    return chosen


@pytest.mark.parametrize("seed", range(5))
def test_uncertainty_ranks_by_expected_wrong_turns_as_the_naive_sum(seed):
    rng = random.Random(seed)
    documents = [[rng.random() for _ in range(rng.randint(1, 40))] for _ in range(8)]

    choices = uncertainty_choice([np.array(values) for values in documents], size=3)

    expected = sorted(range(8), key=lambda i: (-naive_expected_errors(documents[i]), i))[:3]
    assert [choice.position for choice in choices] == expected
    for choice in choices:
        assert choice.score == pytest.approx(naive_expected_errors(documents[choice.position]))


def test_mean_confidence_prefers_the_least_sure_document_whatever_its_length():
    long_and_sure = np.full(400, 0.9)  # 40 expected errors
    short_and_unsure = np.full(10, 0.3)  # 7 expected errors

    by_errors = uncertainty_choice([long_and_sure, short_and_unsure], size=1)
    by_mean = uncertainty_choice(
        [long_and_sure, short_and_unsure], size=1, measure=UncertaintyMeasure.MEAN_CONFIDENCE
    )

    assert by_errors[0].position == 0
    assert by_errors[0].reason == "expected 40 wrong turns of 400 (mean confidence 0.90)"
    assert by_mean[0].position == 1
    assert by_mean[0].score == pytest.approx(0.3)


def test_uncertainty_never_chooses_a_document_without_turns():
    choices = uncertainty_choice([np.array([]), np.array([0.5, 0.5])], size=2)

    assert [choice.position for choice in choices] == [1]


@pytest.mark.parametrize("gold_count", [0, 1, 4])
@pytest.mark.parametrize("seed", range(4))
def test_diversity_is_the_naive_farthest_first(seed, gold_count):
    rng = np.random.default_rng(seed)
    candidates = rng.normal(size=(9, 6)) + 0.5
    gold = rng.normal(size=(gold_count, 6)) + 0.5

    choices = diversity_choice(candidates, gold, size=4)

    assert [choice.position for choice in choices] == naive_farthest_first(
        candidates.tolist(), gold.tolist(), 4
    )


def test_diversity_reports_the_cosine_it_chose_by():
    candidates = np.array([[1.0, 0.0], [0.0, 1.0], [0.9, 0.1]])
    gold = np.array([[1.0, 0.05]])

    first = diversity_choice(candidates, gold, size=1)[0]

    assert first.position == 1
    assert first.reason.startswith("least similar to the gold so far: cosine ")
    assert first.reason.endswith(f"{first.score:.2f}")


def test_random_choice_is_the_seeds_draw_and_never_repeats():
    first = random_choice(10, 4, seed=7)
    again = random_choice(10, 4, seed=7)

    assert [choice.position for choice in first] == [choice.position for choice in again]
    assert len({choice.position for choice in first}) == 4
    assert first[0].reason == "drawn at random (seed 7)"
    assert len(random_choice(3, 10, seed=1)) == 3


def test_documents_sharing_rare_words_are_closer_than_documents_sharing_common_ones():
    budget = document_vector(["le conseil vote le budget primitif de la commune"], "fr")
    budget_again = document_vector(["le budget primitif est adopté"], "fr")
    schools = document_vector(["la rentrée des écoles maternelles de la commune"], "fr")

    assert np.linalg.norm(budget) == pytest.approx(1.0)
    assert float(budget @ budget_again) > float(budget @ schools)
    assert not document_vector([""], "fr").any()
