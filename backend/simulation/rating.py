"""A rating study run end to end on public_meetings with simulated raters, to learn what
Tandem's confidence is worth there: the precision per confidence bin of the shipped defaults'
automatic pairs.

The shipped parameter set of a project is the one tuned on fold A (`workers.align.folds`), so
the automatic pairs come from fold B's meetings only, which that tuning never saw; gold
controls come from fold A. The pre-alignment job runs on a real Celery worker. A simulated
rater answers from the corpus's reference alignment: yes when the pair's turns are exactly the
reference's turns of that segment, partly when the two share a turn, no otherwise. Every rater
answers alike, so their agreement is perfect by construction; the study measures the aligner,
not the raters.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from backend.alignments.services.pre_alignments import pre_align_start, shipped_parameter_set
from backend.curation.public_meetings import (
    corpus_meeting_import,
    load_public_meetings,
    meeting_ids,
    public_meeting_gold_import,
)
from backend.documents.models import Document
from backend.projects.models import Membership, Project, Role
from backend.projects.services import project_create
from backend.ratings.models import Answer, RatingAssignment, RatingStudy
from backend.ratings.selectors import StudyResults, rater_next, study_results
from backend.ratings.services import rating_record, rating_study_create
from backend.simulation.bootstrap import SimulationError, wait_for_job
from workers.align.document_model import Meeting
from workers.align.folds import folds


def simulated_answer(pair_turns: Sequence[int], reference_turns: Sequence[int]) -> str:
    pair, reference = set(pair_turns), set(reference_turns)
    if pair == reference:
        return Answer.YES
    return Answer.PARTLY if pair & reference else Answer.NO


@dataclass
class RatingSimulation:
    sample_size: int
    controls: int
    raters: int
    raters_per_pair: int
    gold_meetings: int
    automatic_meetings: int
    seed: int
    job_timeout: float
    say: Callable[[str], None] = print
    project: Project | None = None
    study: RatingStudy | None = None
    meetings: dict[int, Meeting] = field(default_factory=dict)
    """By document id."""

    def run(self) -> StudyResults:
        fold_a, fold_b = folds(meeting_ids())
        lead, raters = self._set_up()
        project = self.project
        assert project is not None
        automatic = [
            self._import(lead, meeting_id, gold=False)
            for meeting_id in fold_b[: self.automatic_meetings]
        ]
        for meeting_id in fold_a[: self.gold_meetings]:
            self._import(lead, meeting_id, gold=True)
        self.say(
            f"project {project.pk}: {len(automatic)} fold-B meetings to pre-align, "
            f"{self.gold_meetings} fold-A meetings as gold"
        )
        job = pre_align_start(
            actor=lead,
            project=project,
            documents=automatic,
            parameter_set=shipped_parameter_set(project),
        )
        self.say(f"pre-aligning with the shipped defaults (job {job.pk})")
        wait_for_job(job.pk, "the pre-alignment", self.job_timeout)
        self.study = rating_study_create(
            actor=lead,
            project=project,
            name=f"simulated raters, seed {self.seed}",
            sample_size=self.sample_size,
            controls=self.controls,
            rater_ids=[rater.pk for rater in raters],
            raters_per_pair=self.raters_per_pair,
            seed=self.seed,
        )
        for rater in raters:
            self._rate(rater)
        return study_results(study=self.study)

    def _set_up(self) -> tuple[Any, list]:
        users = get_user_model().objects
        lead, _ = users.get_or_create(username="simulation-lead")
        raters = [
            users.get_or_create(username=f"simulation-rater-{number}")[0]
            for number in range(1, self.raters + 1)
        ]
        stamp = timezone.now().strftime("%Y-%m-%d %H:%M:%S")
        self.project = project_create(
            creator=lead,
            name=f"rating simulation, seed {self.seed}, {stamp}",
            description="simulate_rating_study",
        )
        Membership.objects.bulk_create(
            Membership(project=self.project, user=rater, role=Role.ANNOTATOR) for rater in raters
        )
        return lead, raters

    def _import(self, lead: User, meeting_id: str, *, gold: bool) -> Document:
        meeting = load_public_meetings([meeting_id])[0]
        if meeting.reference is None:
            raise SimulationError(f"public_meetings' {meeting_id} has no reference alignment")
        assert self.project is not None
        document = (
            public_meeting_gold_import(actor=lead, project=self.project, meeting_id=meeting_id)
            if gold
            else corpus_meeting_import(actor=lead, project=self.project, meeting=meeting)
        )
        self.meetings[document.pk] = meeting
        return document

    def _rate(self, rater: User) -> None:
        assert self.study is not None
        while (pair := rater_next(study=self.study, rater=rater)["pair"]) is not None:
            item = RatingAssignment.objects.select_related("item").get(pk=pair["assignment"]).item
            reference = self.meetings[item.document_id].reference or ()
            reference_turns = [
                turn for turn, label in enumerate(reference) if label == item.segment_position
            ]
            rating_record(
                rater=rater,
                study=self.study,
                assignment_id=pair["assignment"],
                answer=simulated_answer(item.turn_positions, reference_turns),
            )
