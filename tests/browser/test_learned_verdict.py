"""What a tuning run learned from the gold, and what it proposes, as the lead reads it on the
iteration page: runs on real public_meetings gold on the real worker. From five documents the
run fits a learned decision and the page says whether its corrections apply and what the
confidence is calibrated from, with the held-out figures that choice was made on; from three
it fits none and proposes nothing, and the page says why; when five documents teach a
decision for parameters in use that no setting beats, the page proposes them recalibrated."""

import pytest

from backend.alignments.services.pre_alignments import ENGINE_VERSION, parameter_set_get_or_create
from backend.curation.public_meetings import public_meeting_gold_import
from backend.iterations.models import Iteration
from backend.jobs.models import Job
from backend.projects.services import parameter_set_promote
from backend.tuning.services import tuning_start
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import sign_in
from tests.tasks.conftest import FIVE_GOLD_MEETINGS, wait_for_job
from workers.align.params import AlignmentParams

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TFIDF_TURNS = {"aligner": ["turns"], "scoring.method": ["tfidf"]}
"""Turn-path settings on tf-idf: no word vectors to train."""


def tuned_iteration(team, meetings: list[str], grid: dict) -> Iteration:
    """The project's gold (the meetings' corpus alignments), a run of `grid` on all of it,
    and the closed iteration that quotes it."""
    documents = [
        public_meeting_gold_import(actor=team.lead, project=team.project, meeting_id=meeting)
        for meeting in meetings
    ]
    run = tuning_start(
        actor=team.lead,
        project=team.project,
        gold_documents=documents,
        grid=grid,
        stages=[{"documents": len(documents), "keep": 0.0}],
    )
    job = wait_for_job(run.job_id, timeout=240)
    assert job.status == Job.Status.SUCCEEDED, job.error
    run.refresh_from_db()
    return Iteration.objects.create(
        project=team.project, number=1, closed_at=run.finished_at, tuning_run=run
    )


def open_iteration_page(page, live_server, team, iteration):
    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")


def test_the_iteration_page_says_what_the_tuning_run_learned(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    iteration = tuned_iteration(
        team, FIVE_GOLD_MEETINGS, {**TFIDF_TURNS, "turns.match_offset": [-0.1, 0.0]}
    )
    learned = iteration.tuning_run.job.result["learned"]
    held_out = learned["held_out"]

    open_iteration_page(page, live_server, team, iteration)
    verdict = page.get_by_test_id("learned-verdict")
    if learned["corrections_kept"]:
        expect(verdict).to_contain_text(
            "Corrections learned from the gold apply where their probability reaches "
            f"{round(100 * learned['threshold'])}%"
        )
    else:
        expect(verdict).to_contain_text(
            "No learned corrections: none beat the tuned path on held-out gold"
        )
    if learned["second_opinions_kept"]:
        source, ranking = "a model that also reads the other aligners' labels", "second_opinions"
    elif learned["calibration_score"] == "logistic":
        source, ranking = "a model of the turn's evidence", "learned"
    else:
        source, ranking = "the engine's own confidence", "heuristic"
    expect(verdict).to_contain_text(
        f"The confidence is a probability calibrated on the gold, from {source}"
    )
    # The gold has turns the path got right and turns it got wrong, so the AUROC exists.
    expect(verdict).to_contain_text(f"AUROC on held-out gold {held_out[f'{ranking}_auroc']:.2f}")
    # The tuned path beats the diagonal in use on every document: proposed, with its interval.
    proposal = iteration.tuning_run.best
    expect(page.get_by_test_id("tuning-verdict")).to_contain_text(
        f"The proposal beats the parameters in use. The proposal (rank 1) scores "
        f"{proposal.gain:+.1f} points of the share of turns aligned right against 'diagonal "
        f"baseline', in use ({proposal.gain_low:+.1f} to {proposal.gain_high:+.1f} over the 5 "
        "gold documents, 95 % bootstrap interval)."
    )
    expect(page.get_by_role("button", name="Promote the proposal")).to_be_visible()
    proposed = page.get_by_test_id("candidate").filter(has_text="(proposed)")
    expect(proposed.get_by_test_id("gain")).to_have_text(
        f"{proposal.gain:+.1f} ({proposal.gain_low:+.1f} to {proposal.gain_high:+.1f})"
    )


def test_the_iteration_page_says_why_three_gold_documents_teach_nothing(
    page, live_server, celery_worker_process, team
):
    """The issue's first tuning run: three gold documents. Nothing is learned from them, and
    their best setting, ahead of the parameters in use by less than the documents'
    uncertainty, is not offered."""
    from playwright.sync_api import expect

    in_use = parameter_set_get_or_create(
        project=team.project,
        name="tuned earlier",
        params=AlignmentParams()
        .with_changes(
            {
                "aligner": "turns",
                "scoring.method": "tfidf",
                "turns.match_offset": 0.0,
                "turns.unaligned_gain": 2.0,
            }
        )
        .to_dict(),
        engine_version=ENGINE_VERSION,
        actor=team.lead,
    )
    parameter_set_promote(actor=team.lead, project=team.project, parameter_set=in_use)
    iteration = tuned_iteration(
        team,
        FIVE_GOLD_MEETINGS[:3],
        {
            **TFIDF_TURNS,
            "turns.match_offset": [-0.1, 0.0, 0.1],
            "turns.unaligned_gain": [2.0, 4.0, 8.0],
        },
    )
    run = iteration.tuning_run
    assert run.best is None

    open_iteration_page(page, live_server, team, iteration)
    expect(page.get_by_test_id("learned-verdict")).to_have_text(
        "Nothing learned from this gold. The gold holds 3 documents, fewer than the 5 a "
        "calibrated confidence and learned corrections are fitted from. Pre-alignments keep "
        "the engine's own confidence, uncalibrated, as the parameters in use have no "
        "calibration."
    )
    verdict = page.get_by_test_id("tuning-verdict")
    expect(verdict).to_contain_text(
        "No proposal: keep the current parameters. The best candidate (rank 1) scores +"
    )
    expect(verdict).to_contain_text(
        "over the 3 gold documents, 95 % bootstrap interval): that gain is within what the "
        "choice of gold documents alone could make, so nothing is proposed; more gold will tell."
    )
    expect(verdict).to_contain_text("The parameters in use, tuned earlier, score segment")
    expect(page.get_by_role("button", name="Promote the proposal")).to_have_count(0)


def test_the_iteration_page_offers_the_parameters_in_use_recalibrated(
    page, live_server, celery_worker_process, team
):
    """Five gold documents, and parameters in use that no setting of the grid beats, tuned on
    less gold and carrying no calibration: the page proposes them recalibrated, and once the
    lead promotes that, says the project pre-aligns with it."""
    from playwright.sync_api import expect

    in_use = parameter_set_get_or_create(
        project=team.project,
        name="tuned on less gold",
        params=AlignmentParams()
        .with_changes({"aligner": "turns", "scoring.method": "tfidf", "turns.match_offset": -0.1})
        .to_dict(),
        engine_version=ENGINE_VERSION,
        actor=team.lead,
    )
    parameter_set_promote(actor=team.lead, project=team.project, parameter_set=in_use)
    iteration = tuned_iteration(
        team, FIVE_GOLD_MEETINGS, {**TFIDF_TURNS, "turns.match_offset": [-0.1, 0.0]}
    )
    run = iteration.tuning_run
    assert run.proposal_recalibrates

    open_iteration_page(page, live_server, team, iteration)
    verdict = page.get_by_test_id("tuning-verdict")
    expect(verdict).to_contain_text(
        "No better parameters: the proposal recalibrates the current ones. No candidate beats "
        "'tuned on less gold', in use, on the same gold"
    )
    expect(verdict).to_contain_text(
        "Proposed instead: the same parameters, calibration refitted on 5 gold documents (it "
        "has none: its confidence is the engine's own, not a probability)"
    )
    proposal = page.get_by_test_id("decision-proposal")
    expect(proposal).to_contain_text("Proposal: the parameters in use, recalibrated")
    expect(proposal).to_contain_text("calibration refitted on 5 gold documents")

    page.get_by_role("button", name="Promote the proposal").click()
    confirm = page.get_by_role("dialog", name="Promote the proposal?")
    expect(confirm).to_contain_text("will keep the parameters of tuned on less gold")
    assert_accessible(page, "the iteration page confirming a recalibration")
    confirm.get_by_role("button", name="Promote it").click()
    expect(page.get_by_role("status")).to_contain_text("Proposal promoted.")
    expect(verdict).to_have_text(
        "The recalibrated parameters are promoted: the project pre-aligns with the parameters "
        "of tuned on less gold, their calibration refitted on 5 gold documents."
    )
    expect(page.get_by_role("button", name="Promote the proposal")).to_have_count(0)
    team.project.refresh_from_db()
    promoted = team.project.promoted_parameter_set
    assert (promoted.params, promoted.learned) == (in_use.params, run.best.learned)
