"""One turn of the bootstrap loop as the lead drives it in the browser, on real meetings and
the real worker: open an iteration with a batch and assignees, follow the pre-alignment and
the annotator, close (refused while a document is unsubmitted), take the unsubmitted one out,
close and tune: the page says to keep the diagonal in use, which no candidate beats; the lead
promotes a candidate anyway; the next iteration's tuning scores above that one on the gold as
a whole, not beyond its uncertainty across the documents, so it proposes nothing and the lead
promotes the better-scoring candidate from its row."""

import json
import re

import pytest

from backend.iterations.models import Iteration
from backend.projects.models import Project
from tests.browser.conftest import sign_in
from tests.browser.lead_builders import TINY_GRID, correct_and_submit, import_meetings

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65 turns
]
JOB_TIMEOUT_MS = 120_000


def test_lead_opens_follows_closes_tunes_and_promotes(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    first, second, third = import_meetings(team, MEETINGS)
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations")
    shipped = page.get_by_role("radio", name=re.compile("^the shipped defaults"))
    expect(shipped).to_be_checked()
    page.get_by_role("radio", name=re.compile("^the diagonal aligner")).check()
    page.get_by_label(f"Put {first.name} in the batch").check()
    page.get_by_label(f"Put {second.name} in the batch").check()
    page.get_by_label(f"Put {third.name} in the batch").check()
    page.get_by_role("button", name="Spread the batch over the annotators").click()
    expect(page.get_by_label(f"Annotator of {second.name}")).to_have_value(str(team.annotator.pk))
    page.get_by_role("button", name="Open iteration 1 with 3 documents").click()

    status = page.get_by_test_id("iteration-status")
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    iteration = Iteration.objects.get(project=team.project, number=1)
    assert iteration.parameters["params"]["aligner"] == "diagonal"
    batch = page.get_by_test_id("batch-document")
    expect(batch).to_have_count(3)
    expect(batch.filter(has_text=first.name)).to_contain_text("annotator")
    expect(batch.filter(has_text=first.name)).to_contain_text("not started")

    correct_and_submit(team, first, unaligned=3, seconds=120)
    expect(batch.filter(has_text=first.name)).to_contain_text(
        "annotator: 3 of 33 turns changed, 2 min, submitted"
    )
    expect(page.get_by_test_id("batch-progress")).to_have_text("1 of 3 submitted")

    # The dashboard says what pre-aligns and how far each annotator of the open iteration is.
    page.get_by_role("link", name="Dashboard").click()
    expect(page.get_by_test_id("parameters-in-use")).to_have_text(
        "Pre-aligning with diagonal baseline (what the latest iteration used)."
    )
    progress = page.get_by_test_id("open-iteration-progress")
    expect(progress).to_contain_text("Iteration 1: 1 of 3 documents submitted.")
    for annotator in team.project.memberships.filter(role="annotator"):
        assigned = iteration.documents.filter(assignees=annotator.user).count()
        if assigned:
            done = int(first.assignees.filter(pk=annotator.user_id).exists())
            expect(progress).to_contain_text(
                f"{annotator.user.username}: {done} of {assigned} submitted"
            )
    progress.get_by_role("link", name="Iteration 1").click()
    expect(page.get_by_test_id("batch-progress")).to_have_text("1 of 3 submitted")
    page.get_by_role("button", name="Close iteration 1").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "still wait for a submission from every assignee"
    )
    assert Iteration.objects.get(pk=iteration.pk).closed_at is None

    correct_and_submit(team, second, unaligned=0, seconds=0)
    expect(page.get_by_test_id("batch-progress")).to_have_text("2 of 3 submitted")
    batch.filter(has_text=third.name).get_by_role(
        "button", name="Take out of the iteration"
    ).click()
    expect(page.get_by_test_id("batch-progress")).to_have_text("2 of 2 submitted")
    page.get_by_text("Tuning options").click()
    page.get_by_label("Grid (JSON").fill(json.dumps(TINY_GRID))
    page.get_by_role("button", name="Close iteration 1").click()
    expect(status).to_have_text("Closed", timeout=JOB_TIMEOUT_MS)

    accuracy = page.get_by_role("table", name="Accuracy of iteration 1")
    expected_mean = (100 * 30 / 33 + 100) / 2
    expect(accuracy.get_by_role("row", name=re.compile("^Human-evaluated, turns"))).to_contain_text(
        f"{expected_mean:.1f}%"
    )
    # The annotators kept most of the diagonal's pre-alignment, so on this gold the diagonal,
    # in use, beats both tuned settings: the page says to keep it and proposes nothing.
    candidates = page.get_by_role("table", name="Tuning candidates").get_by_test_id("candidate")
    # Settings with the same figures share a row.
    expect(page.get_by_test_id("tuning-verdict")).to_be_visible(timeout=JOB_TIMEOUT_MS)
    figures = {
        (c.segment_accuracy, c.word_accuracy, c.window_diff)
        for c in Iteration.objects.get(pk=iteration.pk).tuning_run.candidates.filter(
            is_incumbent=False
        )
    }
    expect(candidates).to_have_count(len(figures) + 1)
    expect(candidates.filter(has_text="(in use: diagonal baseline)")).to_have_count(1)
    varied = candidates.get_by_test_id("varied")
    expect(varied.filter(has_text="gapped.match_offset 0.25")).to_have_count(1)
    expect(varied.filter(has_text="gapped.match_offset 0.45")).to_have_count(1)
    expect(page.get_by_role("table", name="Tuning candidates")).not_to_contain_text("null")
    verdict = page.get_by_test_id("tuning-verdict")
    expect(verdict).to_contain_text(
        "No proposal: keep the current parameters. No candidate beats 'diagonal baseline', "
        "in use, on the same gold"
    )
    expect(verdict).to_contain_text("The parameters in use, diagonal baseline, score segment")
    expect(page.get_by_role("button", name="Promote the proposal")).to_have_count(0)
    iteration.refresh_from_db()
    assert iteration.tuning_run.best is None

    # The lead promotes a tuned setting anyway, from its row.
    page.get_by_role("button", name=re.compile(r"^Promote candidate .*\(setting 0\)$")).click()
    page.get_by_role("dialog", name=re.compile("^Promote the candidate ranked")).get_by_role(
        "button", name="Promote it"
    ).click()
    expect(page.get_by_role("status")).to_contain_text("promoted.")
    expect(page.get_by_role("status")).to_be_in_viewport()
    promoted = Project.objects.get(pk=team.project.pk).promoted_parameter_set
    assert promoted is not None
    assert promoted.params == iteration.tuning_run.candidates.get(index=0).params
    expect(page.get_by_test_id("project-promoted")).to_have_text(promoted.name)
    offset = promoted.params["gapped"]["match_offset"]
    expect(candidates.filter(has_text="(promoted)")).to_contain_text(
        f"gapped.match_offset {offset}"
    )

    page.get_by_role("link", name="All iterations").click()
    expect(page.get_by_role("row", name=re.compile(r"^#1 Closed 2"))).to_be_visible()
    expect(page.get_by_role("heading", name="Open iteration 2")).to_be_visible()
    expect(
        page.get_by_text("with the parameters in use: the promoted parameter set")
    ).to_be_visible()
    expect(page.get_by_role("radio")).to_have_count(0)
    expect(page.get_by_label(f"Put {third.name} in the batch")).not_to_be_checked()
    expect(page.get_by_label(f"Put {first.name} in the batch")).to_have_count(0)

    # Iteration 2 tunes only the diagonal. On the gold so far it scores above the tuned
    # setting now in use, but only thanks to the two documents whose gold is its own
    # pre-alignment: on the third, whose gold is the tuned setting's, it gets nothing right.
    # So the page proposes nothing and shows the gain's interval over the documents.
    page.get_by_label(f"Put {third.name} in the batch").check()
    page.get_by_role("button", name="Open iteration 2 with 1 document").click()
    expect(status).to_have_text("Annotating", timeout=JOB_TIMEOUT_MS)
    correct_and_submit(team, third, unaligned=0, seconds=0)
    expect(page.get_by_test_id("batch-progress")).to_have_text("1 of 1 submitted")
    page.get_by_text("Tuning options").click()
    page.get_by_label("Grid (JSON").fill(json.dumps({"aligner": ["diagonal"]}))
    page.get_by_role("button", name="Close iteration 2").click()
    expect(status).to_have_text("Closed", timeout=JOB_TIMEOUT_MS)
    run = Iteration.objects.get(project=team.project, number=2).tuning_run
    diagonal = run.candidates.get(is_incumbent=False)
    assert diagonal.gain > 0 > diagonal.gain_low
    assert run.best is None
    assert run.incumbent_candidate.params == promoted.params
    expect(verdict).to_contain_text(
        "No proposal: keep the current parameters. The best candidate (rank 1) scores "
        f"{diagonal.gain:+.1f} points of the share of turns aligned right against "
        f"{promoted.name!r}, in use ({diagonal.gain_low:+.1f} to {diagonal.gain_high:+.1f} over "
        "the 3 gold documents, 95 % bootstrap interval): that gain is within what the choice "
        "of gold documents alone could make, so nothing is proposed"
    )
    expect(verdict).to_contain_text(f"The parameters in use, {promoted.name}, score segment")
    expect(candidates.filter(has_text=f"(in use: {promoted.name})")).to_have_count(1)
    expect(page.get_by_role("button", name="Promote the proposal")).to_have_count(0)
    page.get_by_role("button", name=re.compile(r"^Promote candidate ranked 1 ")).click()
    page.get_by_role("dialog", name="Promote the candidate ranked 1?").get_by_role(
        "button", name="Promote it"
    ).click()
    expect(page.get_by_role("status")).to_contain_text("promoted.")
    assert Project.objects.get(pk=team.project.pk).promoted_parameter_set.params == diagonal.params
