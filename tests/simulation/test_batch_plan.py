"""How `simulate_bootstrap --select --held-out` lays out a run: the seed's first batch and
held-out meetings are the same under every policy, random keeps the order it had before, and
the project holds the whole pool whenever policies are compared."""

import pytest

from backend.simulation.bootstrap import batches_of
from backend.simulation.selection import batch_plan
from workers.align.annotation.selection import SelectionPolicy

POOL = [f"meeting-{number:02d}" for number in range(12)]
SIZES = [3, 2, 2]


def shuffled(seed: int) -> list[str]:
    return batches_of(POOL, [len(POOL)], seed)[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_annotates_the_batches_it_drew_before_and_holds_out_the_meetings_after(seed):
    plan = batch_plan(shuffled(seed), SIZES, SelectionPolicy.RANDOM, held_out=4)

    batches = [plan.next_batch(project=None, lead=None, wait=None) for _ in SIZES]

    assert batches == batches_of(POOL, SIZES, seed)
    assert plan.held_out == shuffled(seed)[7:11]
    assert plan.imported == shuffled(seed)
    assert plan.reasons[0] == {meeting: "the seed's draw" for meeting in batches[0]}


def test_every_policy_shares_the_first_batch_and_the_held_out_meetings():
    plans = [batch_plan(shuffled(5), SIZES, policy, held_out=3) for policy in SelectionPolicy]

    firsts = [plan.next_batch(project=None, lead=None, wait=None) for plan in plans]

    assert all(first == firsts[0] for first in firsts)
    assert all(plan.held_out == plans[0].held_out for plan in plans)
    assert not set(firsts[0]) & set(plans[0].held_out)


def test_without_held_out_meetings_random_imports_only_its_batches_as_before():
    plan = batch_plan(shuffled(1), SIZES, SelectionPolicy.RANDOM, held_out=0)

    assert plan.imported == shuffled(1)[:7]
    assert batch_plan(shuffled(1), SIZES, SelectionPolicy.DIVERSITY, 0).imported == shuffled(1)


@pytest.mark.parametrize(
    ("sizes", "held_out", "refusal"),
    [([3, 0], 1, "at least one meeting"), ([6, 5], 2, "need 13 meetings; the pool has 12")],
)
def test_a_plan_the_pool_cannot_hold_is_refused(sizes, held_out, refusal):
    with pytest.raises(ValueError, match=refusal):
        batch_plan(shuffled(1), sizes, SelectionPolicy.RANDOM, held_out)
