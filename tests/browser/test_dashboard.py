"""The lead's dashboard in the browser, on two iterations of real public_meetings meetings
pre-aligned, corrected and closed through the services on the real worker; it also takes the
README's screenshot (set TANDEM_UPDATE_SCREENSHOTS=1 to rewrite it)."""

import os
import re
from pathlib import Path
from statistics import mean, median

import numpy as np
import pytest
from django.conf import settings

from backend.alignments.models import Annotation
from backend.iterations.models import AccuracyRecord
from backend.tuning.models import TuningCandidate
from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import fit_window_to, sign_in
from tests.browser.lead_builders import TINY_GRID, closed_iteration, import_meetings
from workers.align.learning.statistics import auroc, expected_calibration_error

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65 turns
    "5860bd5928985249ce967af710051e06",  # 112 turns
]
SCREENSHOT = Path(settings.BASE_DIR) / "docs" / "screenshots" / "dashboard.png"


def kept(turns: int, unaligned: int) -> float:
    return 100 * (turns - unaligned) / turns


def duration(seconds: int) -> str:
    """As the dashboard writes active time (frontend/src/lead/format.ts) under an hour."""
    return f"{seconds} s" if seconds < 60 else f"{round(seconds / 60)} min"


def test_dashboard_shows_each_iterations_accuracy_tuning_effort_and_corpus(
    page, live_server, celery_worker_process, team, tmp_path
):
    from playwright.sync_api import expect

    first_batch = dict(zip(import_meetings(team, MEETINGS), [3, 12, 1, 10], strict=True))
    last = list(first_batch)[-1]
    second_batch = {last: first_batch.pop(last)}
    first_iteration = closed_iteration(
        team, {document: (moved, 60 * moved) for document, moved in first_batch.items()}
    )
    second = closed_iteration(team, {last: (second_batch[last], 90)}, grid=TINY_GRID)
    first_values = [kept(document.turn_count, moved) for document, moved in first_batch.items()]
    second_value = kept(last.turn_count, second_batch[last])

    sign_in(page, live_server, "lead")
    page.get_by_role("link", name="Projects you lead").click()
    page.get_by_role("link", name=team.project.name).click()
    page.get_by_role("link", name="Dashboard").click()

    expect(page.get_by_test_id("parameters-in-use")).to_have_text(
        "Pre-aligning with diagonal baseline (what the latest iteration used)."
    )
    expect(page.get_by_text("No iteration is open.")).to_be_visible()
    box_plot = page.get_by_role("img", name=re.compile("Human-evaluated accuracy, turns"))
    expect(box_plot).to_have_attribute(
        "aria-label",
        re.compile(
            rf"#1: mean {mean(first_values):.1f}%, median {median(first_values):.1f}%, "
            rf"3 documents; #2: mean {second_value:.1f}%, median {second_value:.1f}%, "
            r"1 document(?!s)"
        ),
    )
    table = page.get_by_test_id("accuracy-table")
    for number, values in ((1, first_values), (2, [second_value])):
        cells = table.get_by_role("row", name=re.compile(rf"^#{number} ")).get_by_role("cell")
        expect(cells.nth(0)).to_have_text(str(len(values)))
        expect(cells.nth(1)).to_have_text(f"{mean(values):.1f}%")
        expect(cells.nth(2)).to_have_text(f"{median(values):.1f}%")
    # Four documents scored, two boxes; each document is a dot.
    expect(box_plot.locator("rect")).to_have_count(2)
    expect(box_plot.locator("circle.dot")).to_have_count(4)

    reliability = page.get_by_test_id("reliability-table")
    for number, iteration in ((1, first_iteration), (2, second)):
        records = AccuracyRecord.objects.filter(iteration=iteration).select_related("pre_alignment")
        confidences = [c for record in records for c in record.pre_alignment.confidences]
        right = [
            shown == gold
            for record in records
            for shown, gold in zip(record.pre_alignment_labels, record.gold_labels, strict=True)
        ]
        error = expected_calibration_error(np.asarray(confidences), np.asarray(right))
        ranking = auroc(np.asarray(confidences), np.asarray(right))
        summary = f"calibration error {100 * error:.1f}%"
        if not np.isnan(ranking):
            summary += f", AUROC {ranking:.2f}"
        expect(
            reliability.get_by_role("rowheader", name=f"#{number} (calibration error")
        ).to_have_text(f"#{number} ({summary})")
    expect(
        page.get_by_role("img", name=re.compile("Observed share of turns right"))
    ).to_be_visible()

    candidates = page.get_by_role("table", name="Tuning candidates").get_by_test_id("candidate")
    # The grid's two settings and the diagonal in use, scored on the same gold.
    expect(candidates).to_have_count(3)
    expect(candidates.filter(has_text="(in use: diagonal baseline)")).to_have_count(1)
    # A row names only what differs from the parameters in use: the aligner, and of the
    # gapped aligner's settings the one the grid varies, not those every candidate shares.
    for offset in ("0.25", "0.45"):
        row = candidates.filter(has_text=f"gapped.match_offset {offset}")
        expect(row).to_contain_text("aligner gapped (in use: diagonal)")
        expect(row).not_to_contain_text("skip_gain")
    expect(page.get_by_text("ranked by the share of turns aligned right")).to_be_visible()
    by_word = sorted(
        TuningCandidate.objects.filter(run=second.tuning_run), key=lambda c: -c.word_accuracy
    )
    assert by_word[0].word_accuracy != by_word[-1].word_accuracy
    page.get_by_role("button", name="Word %").click()
    expect(candidates.first).to_contain_text(f"{by_word[0].word_accuracy:.1f}%")
    page.get_by_role("button", name="Word % ▼").click()
    expect(candidates.first).to_contain_text(f"{by_word[-1].word_accuracy:.1f}%")

    page.get_by_role("button", name="Rank").click()
    top = TuningCandidate.objects.get(run=second.tuning_run, rank=1)
    expect(candidates.first).to_contain_text(
        "(in use: diagonal baseline)" if top.is_incumbent else "(proposed)"
    )

    expect(page.get_by_text("Time per document, per annotator and iteration")).to_be_visible()
    effort = page.get_by_role("img", name=re.compile("Turns changed per document"))
    expect(effort.get_by_text("turns", exact=True)).to_be_visible()
    expect(effort).to_have_attribute(
        "aria-label", re.compile(r"#1: annotator 5\.3; #2: annotator 10\b")
    )
    # Each iteration's documents, one click away: who corrected each and what it cost.
    documents = page.get_by_role("table", name="Effort per document, iteration #1")
    expect(documents).to_have_count(0)
    toggle = page.get_by_role("button", name="Per document of iteration #1")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    rows = documents.get_by_test_id("document-effort")
    expect(rows).to_have_count(3)
    for document, moved in first_batch.items():
        annotation = Annotation.objects.get(document=document)
        expect(rows.filter(has_text=document.name)).to_have_text(
            f"{document.name}{document.turn_count}{annotation.annotator.username}"
            f"{sum(annotation.changed)}{moved}00{duration(60 * moved)}yes"
        )
    assert_accessible(page, "the dashboard with an iteration's documents open")
    toggle.click()
    expect(documents).to_have_count(0)
    corpus = page.get_by_role("img", name=re.compile("Gold pairs and trusted automatic pairs"))
    expect(corpus).to_be_visible()
    expect(page.get_by_role("heading", name="Running jobs")).to_be_visible()

    shot = tmp_path / "dashboard.png"
    fit_window_to(page, page.get_by_test_id("dashboard"))
    page.screenshot(path=shot)
    if os.environ.get("TANDEM_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.write_bytes(shot.read_bytes())


def test_running_jobs_show_their_progress_and_a_lead_cancels_one(page, live_server, team):
    """A recorded job that was never sent to the broker stays queued, whatever workers run."""
    from playwright.sync_api import expect

    from backend.jobs.models import Job
    from backend.jobs.services import job_create

    job = job_create(kind=Job.Kind.TUNE, project=team.project, created_by=team.lead)
    Job.objects.filter(pk=job.pk).update(progress=0.4, message="stage 1 of 2")

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/dashboard")
    running = page.get_by_role("list", name="Running jobs")
    expect(running).to_contain_text(f"Tuning {job.pk}: Queued")
    expect(running.get_by_role("progressbar", name=f"Tuning {job.pk}: 40%")).to_be_visible()
    expect(running).to_contain_text("stage 1 of 2")

    page.get_by_role("button", name=f"Cancel Tuning {job.pk}").click()
    expect(page.get_by_text("No job is queued or running.")).to_be_visible()
    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED
