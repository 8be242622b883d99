"""What a tuning run learned from the gold, as the lead reads it on the iteration page: an
iteration of real meetings closed with a turn-path grid on the real worker fits a learned
decision, and the page says whether its corrections apply and from what probability, and
what the confidence is calibrated from with the held-out figures that choice was made on."""

import pytest

from tests.browser.conftest import sign_in
from tests.browser.lead_builders import closed_iteration, import_meetings

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

MEETINGS = [
    "686239f069621dada25c3408f1867d66",  # 33 turns
    "0b9ec6f049e68d4a35fae75792e2a84e",  # 60 turns
    "2f3f95e2eb2b4532169904b186a8cdf0",  # 65 turns
]
TURN_GRID = {
    "aligner": ["turns"],
    "scoring.method": ["tfidf"],
    "turns.match_offset": [0.1, 0.2],
}
"""Two turn-path settings on tf-idf (no word vectors to train): the learned decision is
fitted for the best of them."""


def test_the_iteration_page_says_what_the_tuning_run_learned(
    page, live_server, celery_worker_process, team
):
    from playwright.sync_api import expect

    documents = import_meetings(team, MEETINGS)
    iteration = closed_iteration(
        team, dict(zip(documents, [(4, 60), (0, 30), (9, 120)], strict=True)), grid=TURN_GRID
    )
    iteration.refresh_from_db()
    learned = iteration.tuning_run.job.result["learned"]
    held_out = learned["held_out"]

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/iterations/{iteration.pk}")
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
