"""Tuning runs: started by a lead (or by closing an iteration), carried out by workers.

`tuning_start` validates and records the run and its candidates, then queues `prepare` (word
vectors, then stage 0). Each stage is a Celery chord: its slices (`evaluate_slice`, cpu queue)
run on any worker, and the chord's callback (`finish_stage`) merges them, keeps the best share
and starts the next stage, or ranks everything and records the proposal.

The parameters in use when the run starts (the incumbent) are one of its candidates, kept
through every stage while the others are halved as if it were not there: a run proposes its
best candidate whose gain over the incumbent on the same gold clears the bootstrap interval of
that gain over the gold documents (`workers.align.tuning.proposal`), so a lead is never offered
something worse than what is in use, nor a gain a few documents' luck could make. Settings
that score alike on every document are one choice. The learned decision is fitted only from
enough gold and kept only when it ranks held-out turns (the minimum and floor of
`workers.align.learning.turn_decision`); otherwise the incumbent's stays.

When no candidate beats the incumbent, the decision is fitted for the incumbent's own
parameters, and a new one kept is proposed as the *recalibrated incumbent*: the same
parameters with the decision refitted on more gold. A decision is more than a calibration: its
corrections, when the gold kept them, change labels, and a new one may keep corrections the old
one lacked or drop those it had. So it is proposed and promoted like any candidate, never slipped
under the parameters in use: what pre-aligns a project changes only by a promotion, audited.
Without it a run that keeps the parameters in use would leave the next batch with the old
calibration, or none, and the review mode's estimated residual error would rest on a confidence
that is not a probability (docs/review.md).
"""

import json
import logging
from collections.abc import Iterable
from typing import Any, cast

from celery import chord, signature
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from backend.alignments.models import ParameterSet
from backend.alignments.services.pre_alignments import (
    ENGINE_VERSION,
    diagonal_parameter_set,
    parameter_set_get_or_create,
    takes_prior,
)
from backend.audit.services import record_event
from backend.celery import app as celery_app
from backend.core.errors import InvalidInput
from backend.curation.selectors import document_gold
from backend.documents.models import Document
from backend.documents.selectors import document_meeting
from backend.jobs.models import Job
from backend.jobs.services import (
    job_begin,
    job_create,
    job_fail,
    job_lock_if_running,
    job_report_progress,
    job_submit,
    job_succeed,
)
from backend.projects.defaults import learns_decision
from backend.projects.models import Project
from backend.tuning import plan
from backend.tuning.models import TuningCandidate, TuningRun, TuningSlice
from backend.vectors.services import vectors_for, vectors_load
from workers.align.document_model import Meeting
from workers.align.learning import turn_decision
from workers.align.learning.prior import PRIOR_CORRECTIONS, prior_vectors
from workers.align.params import AlignmentParams
from workers.align.paths.turn_dp import TurnSettings
from workers.align.pipeline import fit_learned_decision
from workers.align.setting_fields import SettingsError, in_words
from workers.align.tuning import proposal, tune

logger = logging.getLogger(__name__)

PREPARE_TASK = "backend.tuning.tasks.prepare"
SLICE_TASK = "backend.tuning.tasks.evaluate_slice"
FINISH_STAGE_TASK = "backend.tuning.tasks.finish_stage"


def tuning_start(
    *,
    actor: User,
    project: Project,
    gold_documents: Iterable[Document],
    grid: dict[str, list[Any]] | None = None,
    stages: list[dict[str, Any]] | None = None,
    ranked_by: str = TuningRun.RankedBy.TURNS,
    incumbent: ParameterSet | None = None,
) -> TuningRun:
    """Validate, record the run with one candidate per grid setting, queue it (503 when the
    broker is down, and then no run is left behind). Gold is each document's stored gold
    (backend.curation); documents are evaluated in the order given. Candidates are ranked by
    the share of gold turns they align right unless `ranked_by` says otherwise: that share is
    what the next round's annotators will leave unchanged. `incumbent`, the parameters in
    use, is scored besides the grid (the project's promoted set, or the diagonal, when None)."""
    if ranked_by not in TuningRun.RankedBy.values:
        raise InvalidInput(
            f"Unknown objective {ranked_by!r}; expected "
            f"{in_words(TuningRun.RankedBy.values, 'or')}.",
            field="ranked_by",
        )
    gold = _gold(project, list(gold_documents))
    grid = tune.named_grid("default") if grid is None else grid
    base = AlignmentParams()
    settings = _expand(base, grid)
    incumbent = incumbent or _promoted_or_diagonal(project)
    incumbent_index, incumbent_note = _incumbent_index(incumbent, settings)
    candidates = list(settings)
    if incumbent_index == len(settings):
        candidates.append(AlignmentParams.from_dict(incumbent.params))
    schedule = plan.default_stages(len(gold)) if stages is None else _checked_stages(stages)
    gold_ids = [item["document"] for item in gold]
    planned = tune.planned_evaluations(schedule, len(settings), len(gold_ids))
    if incumbent_index is not None:
        planned += min(schedule[-1].documents, len(gold_ids))  # at most: it may not be dropped
    with transaction.atomic():
        job = job_create(kind=Job.Kind.TUNE, project=project, created_by=actor)
        run = TuningRun.objects.create(
            project=project,
            job=job,
            gold_documents=gold,
            base_params=base.to_dict(),
            grid=grid,
            stages=plan.stored_stages(schedule),
            ranked_by=ranked_by,
            settings_count=len(settings),
            planned_evaluations=planned,
            incumbent_parameter_set=incumbent,
            incumbent_name=incumbent.name,
            incumbent_note=incumbent_note,
            created_by=actor,
        )
        TuningCandidate.objects.bulk_create(
            TuningCandidate(
                run=run,
                index=index,
                params=params.to_dict(),
                is_incumbent=index == incumbent_index,
            )
            for index, params in enumerate(candidates)
        )
        job.arguments = {"tuning_run": run.pk}
        job.save(update_fields=["arguments"])
        record_event(
            actor=actor,
            action="tuning.start",
            target=run,
            project=project,
            gold_documents=gold_ids,
            settings=len(settings),
        )
    job_submit(
        job=job, task_name=PREPARE_TASK, undo=lambda: TuningRun.objects.filter(pk=run.pk).delete()
    )
    return run


def tuning_candidate_parameter_set(*, actor: User, candidate: TuningCandidate) -> ParameterSet:
    """A parameter set with the candidate's settings, which a lead can then promote."""
    run = candidate.run
    label = f"rank {candidate.rank}" if candidate.rank else f"setting {candidate.index}"
    if run.proposal_recalibrates and candidate.pk == run.best_id:
        label += ", recalibrated"
    with transaction.atomic():
        parameter_set = parameter_set_get_or_create(
            project=run.project,
            name=f"tuning run {run.pk}, {label}",
            params=candidate.params,
            engine_version=ENGINE_VERSION,
            actor=actor,
            learned=candidate.learned,
        )
        record_event(
            actor=actor,
            action="tuning.candidate_to_parameter_set",
            target=parameter_set,
            project=run.project,
            tuning_run=run.pk,
            candidate=candidate.pk,
        )
    return parameter_set


def tuning_prepare_run(*, job_id: int, task_id: str | None = None) -> None:
    """Word vectors for the run (trained now if the project's are stale), then stage 0.
    Running it again relaunches the stage under way, which slices and stages tolerate."""
    job = job_begin(job_id=job_id, task_id=task_id)
    if job is None:
        return
    run = TuningRun.objects.get(job=job)
    if run.word_vectors_id is None and _needs_vectors(run):
        job_report_progress(job_id=job_id, progress=0.0, message="training word vectors")
        vectors = vectors_for(project_id=run.project_id, settings=_base(run).vectors)
        TuningRun.objects.filter(pk=run.pk).update(word_vectors=vectors)
        run.word_vectors = vectors
    _launch_stage(run, run.stage)


def tuning_evaluate_slice(*, slice_id: int) -> None:
    """Score a slice's candidates on its gold documents; results written once, in one
    transaction. A slice of a cancelled or failed run does nothing."""
    work = TuningSlice.objects.select_related("run__job").filter(pk=slice_id).first()
    if work is None or work.results is not None or work.run.job.status != Job.Status.RUNNING:
        return
    run = work.run
    params_of = _candidate_params(run, work.candidates)
    vectors = vectors_load(vectors_id=run.word_vectors_id) if run.word_vectors_id else None
    results = tune.evaluate_grid_slice(
        [_gold_meeting(run, document_id) for document_id in work.documents],
        list(params_of.values()),
        vectors,
    )
    index_of = {params: index for index, params in params_of.items()}
    with transaction.atomic():
        locked = TuningSlice.objects.select_for_update().get(pk=slice_id)
        if locked.results is not None:
            return
        locked.results = plan.encode_results(results, index_of)
        locked.finished_at = timezone.now()
        locked.save(update_fields=["results", "finished_at"])
    _report_progress(run)


def tuning_finish_stage(*, run_id: int, stage: int) -> None:
    """The chord's callback: merge the stage, then start the next one or finish the run.
    A duplicate callback, or one for a stopped run, changes nothing; a slice that has no
    results yet (its task is still being redelivered) is launched again."""
    with transaction.atomic():
        run = TuningRun.objects.select_for_update().get(pk=run_id)
        job = job_lock_if_running(job_id=run.job_id)
        if job is None or run.stage != stage:
            return
        slices = list(run.slices.filter(stage=stage))
        unfinished = [work.pk for work in slices if work.results is None]
        if unfinished:
            transaction.on_commit(lambda: _send_chord(run.pk, stage, unfinished))
            return
        ranked = _rank_stage(run, stage)
        if stage + 1 < len(run.stages):
            kept = list(run.candidates.filter(is_incumbent=True).values_list("index", flat=True))
            challengers = [index for index, _ in ranked if index not in kept]
            keep = plan.run_stages(run.stages)[stage].survivors(len(challengers))
            survivors = challengers[:keep] + kept
            run.candidates.filter(index__in=survivors).update(stage=stage + 1)
            run.stage = stage + 1
            run.save(update_fields=["stage"])
            transaction.on_commit(lambda: _launch_stage(run, stage + 1))
            return
        _finish(run, job, ranked)


def _finish(run: TuningRun, job: Job, ranked: list[tuple[int, tune.SettingResult]]) -> None:
    """Rank every candidate (those dropped early after the finalists) and record the proposal:
    the best candidate other than the incumbent whose gain over it clears the bootstrap
    interval over the gold documents (`workers.align.tuning.proposal`); else the incumbent
    recalibrated, when a new learned decision was fitted and kept for it; else nothing, with
    why. The best challenger then carries the incumbent's decision, so that a lead who promotes
    it anyway does not lose the calibration (it was fitted on another path: nearly the same
    where the two settings differ little, as candidates within the interval do)."""
    by_index = {candidate.index: candidate for candidate in run.candidates.all()}
    order = [index for index, _ in ranked]
    dropped = sorted(
        (candidate for candidate in by_index.values() if candidate.index not in set(order)),
        key=lambda candidate: (-candidate.stage, -(candidate.objective or 0.0), candidate.index),
    )
    order += [candidate.index for candidate in dropped]
    for position, index in enumerate(order, start=1):
        by_index[index].rank = position
    incumbent = next((c for c in by_index.values() if c.is_incumbent), None)
    incumbent_position = next(
        (position for position, (index, _) in enumerate(ranked) if by_index[index].is_incumbent),
        None,
    )
    verdict = proposal.propose(
        [result for _, result in ranked], incumbent_position, cast(tune.Objective, run.ranked_by)
    )
    for (index, _), gain in zip(ranked, verdict.gains, strict=True):
        candidate = by_index[index]
        candidate.gain = gain.difference if gain else None
        candidate.gain_low = gain.low if gain else None
        candidate.gain_high = gain.high if gain else None
    TuningCandidate.objects.bulk_update(
        by_index.values(), ["rank", "gain", "gain_low", "gain_high"], batch_size=500
    )
    challenger = (
        by_index[ranked[verdict.best_challenger][0]]
        if verdict.best_challenger is not None
        else incumbent
    )
    assert challenger is not None, "a run has at least one candidate"
    proposed = by_index[ranked[verdict.proposal][0]] if verdict.proposal is not None else None
    learner = proposed or (incumbent if incumbent and _on_turn_path(incumbent) else challenger)
    learned_summary = _learn(run, learner)
    # A decision refitted on the very gold of the one in use is the same: nothing to propose.
    recalibrated = (
        learner.is_incumbent
        and learned_summary is not None
        and json.loads(json.dumps(learner.learned)) != _incumbent_decision(run)
    )
    if learner.is_incumbent and challenger is not learner:
        challenger.learned = learner.learned
        challenger.save(update_fields=["learned"])
    run.best = learner if recalibrated else proposed
    run.proposal_recalibrates = recalibrated
    run.proposal_reason = verdict.reason
    run.proposal_ties = verdict.ties
    run.proposal_note = _proposal_note(run, verdict, proposed or challenger)
    if recalibrated:
        run.proposal_note += " " + _recalibration_note(run, learner)
    run.finished_at = timezone.now()
    run.save(
        update_fields=[
            "best",
            "proposal_recalibrates",
            "proposal_reason",
            "proposal_ties",
            "proposal_note",
            "finished_at",
        ]
    )
    job_succeed(
        job=job,
        result={
            "tuning_run": run.pk,
            "best_candidate": run.best.pk if run.best else None,
            "params": challenger.params,
            "segment_accuracy": challenger.segment_accuracy,
            "word_accuracy": challenger.word_accuracy,
            "window_diff": challenger.window_diff,
            "objective": challenger.objective,
            "ranked_by": run.ranked_by,
            "documents": challenger.documents_evaluated,
            "learned": learned_summary,
            "learning_refusal": (
                {"code": run.learning_refusal, "reason": run.learning_note}
                if run.learning_refusal
                else None
            ),
            "proposal": {
                "reason": run.proposal_reason,
                "note": run.proposal_note,
                "ties": run.proposal_ties,
                "recalibrates": run.proposal_recalibrates,
            },
            "incumbent": (
                {"name": run.incumbent_name, "objective": incumbent.objective}
                if incumbent
                else None
            ),
        },
        message=(
            f"best of {run.settings_count} settings found"
            if proposed
            else (
                f"{run.incumbent_name!r} recalibrated: no setting of {run.settings_count} beats it"
                if recalibrated
                else f"no proposal: no setting of {run.settings_count} beats "
                f"{run.incumbent_name!r}, in use"
            )
            + (
                " by more than its uncertainty across documents"
                if verdict.reason == "within_uncertainty"
                else ""
            )
        ),
    )


def _proposal_note(run: TuningRun, verdict: proposal.Verdict, shown: TuningCandidate) -> str:
    """The verdict as the iteration page says it: the gain of the proposal (or of the best
    candidate, when nothing is proposed) over the parameters in use, with its interval."""
    documents = len(run.gold_documents)
    in_use = f"{run.incumbent_name!r}, in use"
    ties = (
        f" {verdict.ties} settings score exactly as it does on every gold document: the gold "
        "cannot tell them apart, so the first in the grid stands for them."
        if verdict.ties > 1
        else ""
    )
    if shown.gain is None or shown.gain_low is None or shown.gain_high is None:
        if verdict.reason == "incumbent_best":
            return f"No candidate beats {in_use}, on the same gold.{ties}"
        return (
            f"The best of {run.settings_count} settings is proposed: {run.incumbent_name!r}, "
            f"in use, could not be scored against it.{ties}"
        )
    interval = (
        f"{shown.gain:+.1f} points of the {run.get_ranked_by_display()} against {in_use} "
        f"({shown.gain_low:+.1f} to {shown.gain_high:+.1f} over the {documents} gold "
        f"document{'' if documents == 1 else 's'}, {round(100 * proposal.CONFIDENCE)} % "
        "bootstrap interval)"
    )
    if verdict.reason == "incumbent_best":
        return (
            f"No candidate beats {in_use}, on the same gold: the best (rank {shown.rank}) "
            f"scores {interval}.{ties}"
        )
    if verdict.reason == "within_uncertainty":
        return (
            f"The best candidate (rank {shown.rank}) scores {interval}: that gain is within what "
            "the choice of gold documents alone could make, so "
            f"{'no other setting' if run.proposal_recalibrates else 'nothing'} is proposed; more "
            f"gold will tell.{ties}"
        )
    return f"The proposal (rank {shown.rank}) scores {interval}.{ties}"


def _recalibration_note(run: TuningRun, recalibrated: TuningCandidate) -> str:
    """What the recalibrated incumbent changes, for the iteration page: the confidence, and
    the labels where the new decision's corrections apply or the old one's no longer do."""
    documents = len(run.gold_documents)
    had = _incumbent_decision(run)
    before = (
        "replacing the one it carries"
        if had is not None
        else "it has none: its confidence is the engine's own, not a probability"
    )
    if (recalibrated.learned or {}).get("corrections") is not None:
        labels = "with corrections learned from this gold, which change some labels"
    elif had is not None and had.get("corrections") is not None:
        labels = "without the learned corrections it had, so some labels change back"
    else:
        labels = "with the same labels"
    return (
        f"Proposed instead: the same parameters, calibration refitted on {documents} gold "
        f"documents ({before}), {labels}."
    )


def _learn(run: TuningRun, candidate: TuningCandidate) -> dict[str, Any] | None:
    """Fit the engine's learned decision for the candidate on the run's gold and store it on
    the candidate; a summary for the job's result (None for an aligner other than the turn
    path, whose evidence the decision reads, and for a project that switched it off).

    Nothing is fitted from fewer gold documents than the engine's minimum, and a fit whose
    held-out AUROC is below its floor is not kept: then the candidate carries the incumbent's
    decision (or none: the engine's own confidence), the run records why, and None is
    returned."""
    params = AlignmentParams.from_dict(candidate.params)
    if not isinstance(params.path, TurnSettings) or not learns_decision(run.project.settings):
        return None
    refusal = turn_decision.too_little_gold(len(run.gold_documents))
    if refusal is None:
        vectors = vectors_load(vectors_id=run.word_vectors_id) if run.word_vectors_id else None
        gold = [_gold_meeting(run, document_id) for document_id in run.gold_document_ids]
        decision = fit_learned_decision(gold, params, vectors)
        refusal = turn_decision.weak_ranking(decision)
        if refusal is None:
            candidate.learned = decision.as_dict()
            candidate.save(update_fields=["learned"])
            return decision.summary()
    kept = _incumbent_decision(run)
    candidate.learned = kept
    candidate.save(update_fields=["learned"])
    stays = (
        f"Pre-alignments keep the calibration of {run.incumbent_name!r}, in use."
        if kept is not None
        else _prior_note(params)
        if takes_prior(params, run.word_vectors, run.project)
        else "Pre-alignments keep the engine's own confidence, uncalibrated, as the parameters "
        "in use have no calibration."
    )
    run.learning_refusal = refusal.code
    run.learning_note = f"{refusal.reason} {stays}"
    run.save(update_fields=["learning_refusal", "learning_note"])
    return None


def _on_turn_path(candidate: TuningCandidate) -> bool:
    return isinstance(AlignmentParams.from_dict(candidate.params).path, TurnSettings)


def _prior_note(params: AlignmentParams) -> str:
    """What the shipped prior that `takes_prior` gives these parameters does."""
    if prior_vectors(params) in PRIOR_CORRECTIONS:
        return (
            "Pre-alignments get the shipped prior decision (corrections and a calibration), "
            "fitted on public_meetings gold, as the parameters in use have no decision of "
            "their own."
        )
    return (
        "Pre-alignments get the shipped prior calibration, fitted on public_meetings gold, as "
        "the parameters in use have no calibration of their own."
    )


def _incumbent_decision(run: TuningRun) -> dict[str, Any] | None:
    """The learned decision of the parameters in use when the run started, when this engine
    can read it (one fitted on other features would only fail the next pre-alignment)."""
    stored = run.incumbent_parameter_set.learned if run.incumbent_parameter_set else None
    if stored is None:
        return None
    try:
        turn_decision.LearnedDecision.from_dict(stored)
    except (KeyError, TypeError, ValueError):
        return None
    return stored


def _rank_stage(run: TuningRun, stage: int) -> list[tuple[int, tune.SettingResult]]:
    """Every result so far of the stage's candidates, merged and ranked; their scores are
    saved on the candidates."""
    candidates = {c.index: c for c in run.candidates.filter(stage__gte=stage)}
    params_of = {index: AlignmentParams.from_dict(c.params) for index, c in candidates.items()}
    index_of = {params: index for index, params in params_of.items()}
    slices = [
        plan.decode_results(cast(list, results), params_of)
        for results in run.slices.filter(stage__lte=stage)
        .order_by("stage", "index")
        .values_list("results", flat=True)
    ]
    objective = cast(tune.Objective, run.ranked_by)
    ranked = plan.rank(slices, index_of, objective)
    for result in ranked:
        summary, candidate = result.summary, candidates[index_of[result.params]]
        candidate.documents_evaluated = len(result.per_meeting)
        candidate.segment_accuracy = summary.segment_accuracy
        candidate.word_accuracy = summary.word_accuracy
        candidate.window_diff = summary.windowdiff
        candidate.objective = tune.objective(summary, objective)
    TuningCandidate.objects.bulk_update(
        candidates.values(),
        ["documents_evaluated", "segment_accuracy", "word_accuracy", "window_diff", "objective"],
        batch_size=500,
    )
    return [(index_of[result.params], result) for result in ranked]


def _launch_stage(run: TuningRun, stage: int) -> None:
    """Record the stage's slices (once) and send them as a chord; a stage with no new
    documents goes straight to its merge."""
    documents = plan.stage_documents(plan.run_stages(run.stages), stage, run.gold_document_ids)
    params_of = _candidate_params(run, None, stage=stage)
    for index, (slice_documents, candidates) in enumerate(plan.cut_stage(documents, params_of)):
        TuningSlice.objects.get_or_create(
            run=run,
            stage=stage,
            index=index,
            defaults={"documents": slice_documents, "candidates": candidates},
        )
    pending = list(
        run.slices.filter(stage=stage, results__isnull=True).values_list("pk", flat=True)
    )
    job_report_progress(
        job_id=run.job_id,
        progress=_progress(run),
        message=f"stage {stage + 1} of {len(run.stages)}: {len(params_of)} settings",
    )
    if pending:
        _send_chord(run.pk, stage, pending)
    else:
        tuning_finish_stage(run_id=run.pk, stage=stage)


def _send_chord(run_id: int, stage: int, slice_ids: list[int]) -> None:
    try:
        header = [
            signature(SLICE_TASK, args=(slice_id,), immutable=True, app=celery_app)
            for slice_id in slice_ids
        ]
        callback = signature(
            FINISH_STAGE_TASK, args=(run_id, stage), immutable=True, app=celery_app
        )
        chord(header)(callback)
    except Exception as error:
        logger.exception("Cannot queue stage %s of tuning run %s", stage, run_id)
        run = TuningRun.objects.get(pk=run_id)
        job_fail(job_id=run.job_id, error=f"Cannot queue stage {stage + 1}: {error}")
        raise


def _report_progress(run: TuningRun) -> None:
    stage = TuningRun.objects.values_list("stage", flat=True).get(pk=run.pk)
    job_report_progress(
        job_id=run.job_id,
        progress=_progress(run),
        message=f"stage {stage + 1} of {len(run.stages)}",
    )


def _progress(run: TuningRun) -> float:
    done = sum(
        len(documents) * len(candidates)
        for documents, candidates in run.slices.filter(results__isnull=False).values_list(
            "documents", "candidates"
        )
    )
    return min(0.99, done / run.planned_evaluations) if run.planned_evaluations else 0.0


def _candidate_params(
    run: TuningRun, indices: list[int] | None, stage: int | None = None
) -> dict[int, AlignmentParams]:
    candidates = run.candidates.order_by("index")
    if indices is not None:
        candidates = candidates.filter(index__in=indices)
    if stage is not None:
        candidates = candidates.filter(stage__gte=stage)
    return {
        index: AlignmentParams.from_dict(params)
        for index, params in candidates.values_list("index", "params")
    }


def _gold_meeting(run: TuningRun, document_id: int) -> Meeting:
    labels = next(gold["labels"] for gold in run.gold_documents if gold["document"] == document_id)
    return document_meeting(Document.objects.get(pk=document_id), reference=labels)


def _base(run: TuningRun) -> AlignmentParams:
    return AlignmentParams.from_dict(run.base_params)


def _needs_vectors(run: TuningRun) -> bool:
    return any(
        params.aligner != "diagonal" and params.scoring.method == "embedding"
        for params in _candidate_params(run, None).values()
    )


def _promoted_or_diagonal(project: Project) -> ParameterSet:
    project.refresh_from_db(fields=["promoted_parameter_set"])
    return project.promoted_parameter_set or diagonal_parameter_set(project)


def _incumbent_index(
    incumbent: ParameterSet, settings: list[AlignmentParams]
) -> tuple[int | None, str]:
    """Where the incumbent stands among the candidates: the grid setting equal to it, or one
    more after the grid; None, with the reason, when the run cannot score it."""
    try:
        params = AlignmentParams.from_dict(incumbent.params)
    except (SettingsError, TypeError, ValueError):
        return None, f"{incumbent.name!r} is not a setting of Tandem's aligners, so not scored."
    if params in settings:
        return settings.index(params), ""
    reads_vectors = params.aligner != "diagonal" and params.scoring.method == "embedding"
    if reads_vectors and params.vectors != settings[0].vectors:
        return None, (
            f"{incumbent.name!r} reads other word vectors than the grid's (a run trains one "
            "set), so it is not scored."
        )
    return len(settings), ""


def _gold(project: Project, documents: list[Document]) -> list[dict[str, Any]]:
    """Each document's gold as the rule stored it, copied: the run scores against what the
    gold was when it started, whatever happens to the document afterwards."""
    if not documents:
        raise InvalidInput("Tuning needs at least one gold document.", field="gold_documents")
    seen: set[int] = set()
    gold = []
    for document in documents:
        if document.project_id != project.pk:
            raise InvalidInput(
                f"Project {project.pk} has no document {document.pk}.", field="gold_documents"
            )
        if document.pk in seen:
            continue
        seen.add(document.pk)
        stored = document_gold(document_id=document.pk)
        if stored is None:
            raise InvalidInput(
                f"Document {document.pk} ({document.name}) has no gold to tune on: no "
                "submission yet, or its annotators disagree and nobody adjudicated.",
                field="gold_documents",
            )
        gold.append({"document": document.pk, "rule": stored.rule, "labels": stored.labels})
    return gold


def _expand(base: AlignmentParams, grid: Any) -> list[AlignmentParams]:
    if not isinstance(grid, dict) or not grid:
        raise InvalidInput("The grid must map parameter names to lists of values.", field="grid")
    for name, values in grid.items():
        if not isinstance(values, list) or not values:
            raise InvalidInput(f"Grid entry {name!r} must be a non-empty list.", field="grid")
    if plan.grid_too_large(grid):
        raise InvalidInput(plan.GRID_TOO_LARGE, field="grid")
    try:
        settings = tune.expand_grid(base, grid)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"The grid is not valid: {error}", field="grid") from error
    if len({params.vectors for params in settings}) > 1:
        raise InvalidInput(
            "A tuning run trains one set of word vectors: the grid must not vary vectors.*.",
            field="grid",
        )
    return settings


def _checked_stages(stages: Any) -> tuple[tune.Stage, ...]:
    problem = "Stages must be a list of {documents: n >= 1, keep: share in [0, 1)}"
    if not isinstance(stages, list) or not stages:
        raise InvalidInput(f"{problem}.", field="stages")
    checked = []
    for stage in stages:
        try:
            checked.append(tune.Stage(documents=int(stage["documents"]), keep=float(stage["keep"])))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidInput(f"{problem}; got {stage!r}.", field="stages") from error
    try:
        return tune.Stage.schedule(checked)
    except ValueError as error:
        raise InvalidInput(
            "The last stage must keep 0: it ranks, it does not cut.", field="stages"
        ) from error
