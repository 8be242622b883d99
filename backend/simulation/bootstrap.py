"""The bootstrap loop run end to end on the public_meetings corpus, with simulated annotators.

Everything goes through the services a lead's and an annotator's requests call, and every
background job runs on a real Celery worker: the simulation measures the product, not a
re-implementation of it. Simulated annotators correct each turn to the corpus's final
alignment, projected onto what the editor accepts (see `reachable_gold`). With double
annotation, a share of each batch gets a second annotator; annotators then overlook some of
the pre-alignment's mistakes, each independently (`overlooking_correction`), and the lead
adjudicates every document whose submissions disagree, choosing the corpus's alignment.
In review mode (`review_threshold`), annotators read only the turns the review mode shows
and accept the rest as pre-aligned (`backend.simulation.review`).
"""

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import mean, median
from typing import Any

import numpy as np
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from backend.agreement.selectors import iteration_agreement_summary
from backend.alignments.selectors import annotation_state, current_pre_alignments
from backend.alignments.services.annotations import annotation_apply, annotation_submit
from backend.alignments.services.spot_check import annotation_spot_check_draw
from backend.curation.adjudication import adjudication_apply, adjudication_complete
from backend.curation.models import GoldState
from backend.curation.public_meetings import (
    corpus_meeting_import,
    corrected_turns,
    load_public_meetings,
    meeting_ids,
    source_of,
)
from backend.curation.selectors import adjudication_state, gold_by_document, gold_decision
from backend.dashboards.selectors import NO_RELIABILITY, reliability_by_iteration
from backend.documents.models import Document
from backend.iterations.double_annotation import DoubleAnnotation
from backend.iterations.models import Iteration, StartingParameters
from backend.iterations.review import after_review
from backend.iterations.services import (
    iteration_close,
    iteration_open,
    iteration_promote,
    iteration_review_set,
)
from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from backend.projects.services import project_create
from backend.simulation.annotator import (
    correction_operations,
    overlooking_correction,
    reachable_gold,
    seconds_spent,
)
from backend.simulation.review import (
    PreAligned,
    ReviewTally,
    ReviewThreshold,
    iteration_threshold,
    reviewed_labels,
    spot_checked_labels,
)
from backend.simulation.selection import batch_plan
from workers.align.annotation.review import turns_to_review
from workers.align.annotation.selection import SelectionPolicy
from workers.align.document_model import Meeting

ANNOTATORS = 3
POLL_SECONDS = 1.0


class SimulationError(Exception):
    pass


@dataclass
class IterationOutcome:
    index: int
    documents: list[str]
    parameters: dict[str, Any]
    human_turn_accuracy: list[float]
    human_word_accuracy: list[float]
    segment_accuracy: list[float]
    word_accuracy: list[float]
    windowdiff: list[float | None]
    calibration: dict[str, Any] = field(default_factory=dict)
    """How far the pre-alignment's confidence was from the share of its turns the gold kept
    (the dashboard's reliability figures for the iteration)."""
    tuning: dict[str, Any] = field(default_factory=dict)
    agreement: dict[str, Any] = field(default_factory=dict)
    selection: dict[str, Any] = field(default_factory=dict)
    """Why each document was in the batch, and the turns its annotators changed."""
    review: dict[str, Any] = field(default_factory=dict)
    """Turns reviewed and changed, and wrong labels left in the gold (`ReviewTally`)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "documents": self.documents,
            "parameters": self.parameters,
            "mean_accuracy": mean(self.human_turn_accuracy),
            "median_accuracy": median(self.human_turn_accuracy),
            "mean_word_accuracy": mean(self.human_word_accuracy),
            "median_word_accuracy": median(self.human_word_accuracy),
            "automatic": {
                "segment_accuracy": mean(self.segment_accuracy),
                "word_accuracy": mean(self.word_accuracy),
                "windowdiff": _defined_mean(self.windowdiff),
            },
            "calibration": self.calibration,
            "per_document_accuracy": dict(
                zip(self.documents, self.human_turn_accuracy, strict=True)
            ),
            "tuning": self.tuning,
            "agreement": self.agreement,
            "selection": self.selection,
            **self.review,
        }


def batches_of(ids: Sequence[str], sizes: Sequence[int], seed: int) -> list[list[str]]:
    """The corpus shuffled by `seed`, cut into consecutive batches of the given sizes."""
    if sum(sizes) > len(ids):
        raise SimulationError(f"The batches need {sum(sizes)} meetings; the corpus has {len(ids)}.")
    if any(size < 1 for size in sizes):
        raise SimulationError(f"Every batch needs at least one meeting, got {list(sizes)}.")
    shuffled = sorted(ids)
    random.Random(seed).shuffle(shuffled)
    batches, start = [], 0
    for size in sizes:
        batches.append(shuffled[start : start + size])
        start += size
    return batches


@dataclass
class Simulation:
    """One run of the loop on a fresh project; `say` reports progress to the caller."""

    sizes: Sequence[int]
    seed: int
    job_timeout: float
    final_tuning: bool = True
    pool: Sequence[str] | None = None
    double_share: float = 0.0
    """Share of each batch two annotators correct (drawn with the run's seed)."""
    overlook: float = 0.0
    """Probability that an annotator leaves a wrong pre-aligned turn as it is."""
    learned_decision: bool = True
    """Whether tuning fits the engine's learned decision (the project setting), so that the
    loop can be measured with and without it."""
    select: SelectionPolicy = SelectionPolicy.RANDOM
    """How batches after the first are chosen (backend.simulation.selection)."""
    held_out: int = 0
    """Meetings drawn by the seed, never annotated, scored once the loop is over."""
    review_threshold: ReviewThreshold | None = None
    """Annotators review only the turns shown under this confidence threshold (or the one
    `auto` computes per iteration); None: they read and correct every turn."""
    review_top_up: bool = False
    """In review mode, annotators also read the turns the top-up adds where the shown ones
    proved wrong (`backend.simulation.review.reviewed_labels`): an experiment the editor does
    not run."""
    review_follow_changes: bool = True
    """In review mode, annotators also read the turns next to those they changed, to the end
    of each run, as the editor's review mode shows them (`backend.simulation.review
    .reviewed_labels`); False: the shown turns only, as the review mode first did."""
    review_spot_check: float = 0.0
    """In review mode, the share of the turns a document's review left unread that its
    annotators then read at random, as a spot check the iteration asks for
    (`backend.alignments.services.spot_check`); 0 for none."""
    starting: StartingParameters = StartingParameters.DIAGONAL
    """What pre-aligns the batches until a tuning run's set is promoted: the paper's diagonal,
    or the shipped defaults a new project starts from."""
    say: Callable[[str], None] = print
    held_out_figures: dict[str, Any] = field(default_factory=dict)
    _project: Project | None = None
    lead: Any = None
    annotators: list[Any] = field(default_factory=list)
    meetings: dict[str, Meeting] = field(default_factory=dict)

    @property
    def project(self) -> Project:
        if self._project is None:
            raise SimulationError("the simulation's project exists once run() has set it up")
        return self._project

    def _reference(self, meeting_id: str) -> Sequence[int]:
        reference = self.meetings[meeting_id].reference
        if reference is None:
            raise SimulationError(f"public_meetings' {meeting_id} has no reference alignment")
        return reference

    def run(self) -> list[IterationOutcome]:
        pool = self.pool or meeting_ids()
        try:
            plan = batch_plan(
                batches_of(pool, [len(pool)], self.seed)[0], self.sizes, self.select, self.held_out
            )
        except ValueError as error:
            raise SimulationError(str(error)) from error
        self._set_up(plan.imported)
        outcomes = []
        for index in range(1, len(self.sizes) + 1):
            batch = plan.next_batch(project=self.project, lead=self.lead, wait=self._wait)
            last = index == len(self.sizes)
            outcomes.append(self._iteration(index, batch, tune=self.final_tuning or not last))
            outcomes[-1].selection = plan.iteration_figures(
                Iteration.objects.get(project=self.project, number=index)
            )
        self.held_out_figures = plan.held_out_accuracy(
            project=self.project, lead=self.lead, meetings=self.meetings, wait=self._wait
        )
        return outcomes

    def _set_up(self, wanted: list[str]) -> None:
        users = get_user_model().objects
        self.lead, _ = users.get_or_create(username="simulation-lead")
        self.annotators = [
            users.get_or_create(username=f"simulation-annotator-{number}")[0]
            for number in range(1, ANNOTATORS + 1)
        ]
        stamp = timezone.now().strftime("%Y-%m-%d %H:%M:%S")
        self._project = project_create(
            creator=self.lead,
            name=f"bootstrap simulation, seed {self.seed}, {stamp}",
            description=f"simulate_bootstrap --batches {','.join(map(str, self.sizes))}",
            settings={"learned_decision": self.learned_decision},
        )
        Membership.objects.bulk_create(
            Membership(project=self.project, user=user, role=Role.ANNOTATOR)
            for user in self.annotators
        )
        self.meetings = {meeting.id: meeting for meeting in load_public_meetings(wanted)}
        for meeting_id in wanted:
            corpus_meeting_import(
                actor=self.lead, project=self.project, meeting=self.meetings[meeting_id]
            )
        self.say(f"project {self.project.pk}: {len(wanted)} public_meetings meetings imported")

    def _iteration(self, index: int, batch: list[str], tune: bool) -> IterationOutcome:
        documents = {
            document.source: document
            for document in Document.objects.filter(
                project=self.project, source__in=[source_of(meeting_id) for meeting_id in batch]
            )
        }
        ordered = [documents[source_of(meeting_id)] for meeting_id in batch]
        iteration = iteration_open(
            actor=self.lead,
            project=self.project,
            documents=ordered,
            assignments={
                document.pk: [self.annotators[position % len(self.annotators)].pk]
                for position, document in enumerate(ordered)
            },
            double=(
                DoubleAnnotation(share=self.double_share, seed=self.seed * 1000 + index)
                if self.double_share
                else None
            ),
            name=f"simulated batch {index}",
            starting=self.starting,
        )
        self.say(
            f"iteration {index}: pre-aligning {len(batch)} meetings "
            f"with {iteration.parameters['name']!r}"
        )
        if iteration.pre_align_job_id is None:
            raise SimulationError(f"iteration {index} started no pre-alignment")
        self._wait(iteration.pre_align_job_id, f"iteration {index}'s pre-alignment")
        pre_aligned = _pre_aligned(batch, ordered)
        review = ReviewTally(
            threshold=None
            if self.review_threshold is None
            else iteration_threshold(
                self.review_threshold, list(pre_aligned.values()), self.review_follow_changes
            ),
            top_up=self.review_top_up,
            follow_changes=self.review_follow_changes,
        )
        if review.threshold is not None:
            iteration_review_set(
                actor=self.lead,
                iteration=iteration,
                changes={
                    "threshold": review.threshold,
                    "spot_check": self.review_spot_check or None,
                },
            )
        adjudicated = 0
        for meeting_id, document in zip(batch, ordered, strict=True):
            for annotator in document.assignees.order_by("username"):
                self._correct(annotator, document, meeting_id, review, pre_aligned[meeting_id])
            adjudicated += self._adjudicate_if_needed(document, meeting_id)
        golds = gold_by_document(document_ids=[document.pk for document in ordered])
        for meeting_id, document in zip(batch, ordered, strict=True):
            review.add_document(
                meeting_id,
                pre_aligned[meeting_id],
                golds[document.pk].labels,
                reachable_gold(self._reference(meeting_id)),
                corrected_turns(self.meetings[meeting_id]),
            )
        app = (
            None
            if review.threshold is None
            else after_review(iteration=iteration, threshold=review.threshold)
        )
        summary = iteration_agreement_summary(iteration=iteration)
        agreement = {"adjudicated": adjudicated, **summary}
        iteration = iteration_close(actor=self.lead, iteration=iteration, tune=tune)
        outcome = self._outcome(index, batch, iteration)
        outcome.agreement = agreement
        outcome.review = {
            **review.as_dict(),
            "app_estimated_residual_error_after_review": (
                None if app is None else app.estimated_residual_error
            ),
            "app_estimated_residual_error_spot_checked": (
                None if app is None else app.estimated_residual_error_spot_checked
            ),
        }
        self.say(f"iteration {index}: {review.summary()}")
        figures = outcome.as_dict()
        self.say(
            f"iteration {index}: human-evaluated accuracy mean {figures['mean_accuracy']:.2f} %, "
            f"median {figures['median_accuracy']:.2f} %"
            + (
                f"; expected calibration error {error:.3f}"
                if (error := outcome.calibration["expected_calibration_error"]) is not None
                else ""
            )
            + (
                f", confidence AUROC {ranking:.3f}"
                if (ranking := outcome.calibration["auroc"]) is not None
                else ""
            )
        )
        if summary["documents"]:
            overall = summary["overall"]
            self.say(
                f"iteration {index}: {summary['documents']} documents annotated twice, "
                f"{adjudicated} adjudicated; agreement {overall['turn_agreement']:.2f} % of "
                f"turns, kappa {overall['kappa']:.3f}, alpha {overall['alpha']:.3f}"
            )
        if tune:
            if iteration.tuning_run is None:
                raise SimulationError(f"closing iteration {index} started no tuning run")
            self._wait(iteration.tuning_run.job_id, f"iteration {index}'s tuning run")
            iteration = Iteration.objects.select_related("tuning_run__best").get(pk=iteration.pk)
            run = iteration.tuning_run
            if run is None:
                raise SimulationError(f"iteration {index}'s tuning run vanished")
            best = run.best or run.incumbent_candidate
            if best is None:
                raise SimulationError(f"iteration {index}'s tuning run scored nothing in use")
            promoted = (
                iteration_promote(actor=self.lead, iteration=iteration).name
                if run.best
                else run.incumbent_name
            )
            outcome.tuning = {
                "gold_documents": len(run.gold_documents),
                "settings": run.settings_count,
                "ranked_by": run.ranked_by,
                "promoted": promoted,
                "kept_in_use": run.best is None or run.proposal_recalibrates,
                "recalibrated": run.proposal_recalibrates,
                "segment_accuracy": best.segment_accuracy,
                "word_accuracy": best.word_accuracy,
                "window_diff": best.window_diff,
            }
            recalibrated = "(the parameters in use, calibration refitted) "
            self.say(
                f"iteration {index}: tuned on {outcome.tuning['gold_documents']} gold documents, "
                f"{'kept' if run.best is None else 'promoted'} {promoted!r} "
                f"{recalibrated if run.proposal_recalibrates else ''}"
                f"(segment accuracy {best.segment_accuracy:.2f} % on them)"
            )
        return outcome

    def _correct(
        self,
        annotator: User,
        document: Document,
        meeting_id: str,
        review: ReviewTally,
        pre_aligned: PreAligned,
    ) -> None:
        """One annotator's work on `document`, through the editor's services. In review mode
        the turns read go with the edits (`reviewed_turns`), a spot check is drawn by the
        app's service once the review's edits are saved, and the rest is accepted unread, as
        the editor's review mode submits it."""
        state = annotation_state(document=document, annotator=annotator)
        initial, version = list(state["assignments"]), int(state["version"])
        reference = reachable_gold(self._reference(meeting_id))
        overlooking = random.Random(f"{self.seed}:{meeting_id}:{annotator.username}")
        if review.threshold is None:
            target = overlooking_correction(initial, reference, self.overlook, overlooking)
            version = self._write(
                annotator, document, initial, version, target, seconds_spent(initial, target)
            )
            annotation_submit(annotator=annotator, document=document, version=version)
            return
        wanted, read = reviewed_labels(
            pre_aligned, reference, review.threshold, review.top_up, review.follow_changes
        )
        target = overlooking_correction(initial, wanted, self.overlook, overlooking)
        if self.review_spot_check:
            version = self._write(annotator, document, initial, version, target, 0, read)
            checked = self._spot_check(
                annotator, document, meeting_id, pre_aligned.confidences, review.threshold
            )
            review.note_spot_check(meeting_id, ~read, checked, wanted)
            wanted, read = spot_checked_labels(
                pre_aligned, reference, review.threshold, read, checked, review.follow_changes
            )
            reviewed, target = (
                target,
                overlooking_correction(target, wanted, self.overlook, overlooking),
            )
        else:
            reviewed = initial
        review.note_read(meeting_id, read)
        seconds = seconds_spent(initial, target, int(read.sum()))
        version = self._write(annotator, document, reviewed, version, target, seconds, read)
        annotation_submit(
            annotator=annotator, document=document, version=version, accept_unreviewed=True
        )

    def _spot_check(
        self,
        annotator: User,
        document: Document,
        meeting_id: str,
        confidences: np.ndarray,
        threshold: float,
    ) -> np.ndarray:
        """The turns the app's service draws for the annotator's spot check, from a generator
        seeded by the run and the meeting, so that a run repeats and two annotators of one
        document, who read the same turns, check the same ones."""
        shown = turns_to_review(confidences, threshold)
        drawn = annotation_spot_check_draw(
            annotator=annotator,
            document=document,
            share=self.review_spot_check,
            shown_turns=np.flatnonzero(shown).tolist(),
            rng=np.random.default_rng(
                random.Random(f"{self.seed}:{meeting_id}:spot check").getrandbits(64)
            ),
        ).spot_check["drawn"]
        return np.isin(np.arange(len(shown)), drawn)

    @staticmethod
    def _write(
        annotator: User,
        document: Document,
        current: Sequence[int],
        version: int,
        target: Sequence[int],
        seconds: int,
        read: np.ndarray | None = None,
    ) -> int:
        """Saves `target` over the annotation at `version`, whose labels are `current`, with
        the turns `read` (None outside review mode, where every turn is read); the version
        written. In review mode the annotation is written even with nothing read or changed,
        as the editor writes it on opening: a spot check is drawn on it."""
        operations = correction_operations(current, target)
        if not operations and read is None:
            return version
        reviewed = [] if read is None else np.flatnonzero(read).tolist()
        return annotation_apply(
            annotator=annotator,
            document=document,
            version=version,
            operations=operations,
            seconds_spent=seconds,
            reviewed_turns=reviewed,
        ).version

    def _adjudicate_if_needed(self, document: Document, meeting_id: str) -> int:
        """The lead adjudicates a disagreement for the corpus's (reachable) alignment."""
        if gold_decision(document=document).state != GoldState.NEEDS_ADJUDICATION:
            return 0
        state = adjudication_state(document=document)
        target = reachable_gold(self._reference(meeting_id))
        operations = correction_operations(state["assignments"], target)
        version = state["version"]
        if operations:
            version = adjudication_apply(
                curator=self.lead,
                document=document,
                version=version,
                operations=operations,
                seconds_spent=seconds_spent(state["assignments"], target),
            ).version
        adjudication_complete(curator=self.lead, document=document, version=version)
        return 1

    def _outcome(self, index: int, batch: list[str], iteration: Iteration) -> IterationOutcome:
        records = {
            record.document.source: record
            for record in iteration.records.select_related("document")
        }
        ordered = [records[source_of(meeting_id)] for meeting_id in batch]
        reliability = reliability_by_iteration(project_id=self.project.pk).get(
            iteration.pk, NO_RELIABILITY
        )
        return IterationOutcome(
            index=index,
            documents=batch,
            parameters=iteration.parameters,
            human_turn_accuracy=[record.human_turn_accuracy for record in ordered],
            human_word_accuracy=[record.human_word_accuracy for record in ordered],
            segment_accuracy=[record.segment_accuracy for record in ordered],
            word_accuracy=[record.word_accuracy for record in ordered],
            windowdiff=[record.windowdiff for record in ordered],
            calibration={
                "turns": reliability["turns"],
                "expected_calibration_error": reliability["expected_calibration_error"],
                "auroc": reliability["auroc"],
            },
        )

    def _wait(self, job_id: int, what: str) -> None:
        wait_for_job(job_id, what, self.job_timeout)


def wait_for_job(job_id: int, what: str, timeout: float) -> None:
    """Polls the job's row: the simulations wait for a worker they do not control."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status == Job.Status.SUCCEEDED:
            return
        if job.status in Job.FINISHED:
            raise SimulationError(f"{what} (job {job.pk}) {job.status}: {job.error}")
        time.sleep(POLL_SECONDS)
    raise SimulationError(
        f"{what} (job {job_id}) did not finish within {timeout:.0f} s; is a worker "
        "consuming the default and cpu queues?"
    )


def _pre_aligned(batch: list[str], documents: list[Document]) -> dict[str, PreAligned]:
    """Per meeting, the pre-alignment its annotators start from."""
    shown = current_pre_alignments(document_ids=[document.pk for document in documents])
    return {
        meeting_id: PreAligned(
            labels=np.asarray(shown[document.pk].labels, dtype=np.int64),
            confidences=np.asarray(shown[document.pk].confidences, dtype=np.float64),
            run_correlation=shown[document.pk].run_correlation,
        )
        for meeting_id, document in zip(batch, documents, strict=True)
    }


def _defined_mean(values: Sequence[float | None]) -> float | None:
    """The mean of the defined values (WindowDiff is undefined on short segments); None if
    none is."""
    defined = [value for value in values if value is not None]
    return mean(defined) if defined else None
