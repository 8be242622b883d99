"""Writes on pre-alignments: parameter sets, recording the engine's proposals, and the
pre-alignment job (queued by `pre_align_start`, run by `pre_align_run` on a worker)."""

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from gensim.models import KeyedVectors

from backend.alignments.models import ParameterSet, PreAlignment
from backend.alignments.pair_confidences import pair_confidences_to_store
from backend.audit.services import record_event
from backend.core.errors import InvalidInput
from backend.core.wording import counted
from backend.documents.models import Document
from backend.documents.selectors import document_meeting, kept_segments, missing_documents
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
from backend.vectors.models import WordVectors
from backend.vectors.selectors import engine_vectors_kind
from backend.vectors.services import vectors_for, vectors_load
from backend.version import VERSION
from workers.align.diagnosis import Finding, diagnose_meeting
from workers.align.document_model import UNALIGNED, Meeting
from workers.align.folds import new_document_defaults
from workers.align.learning.prior import prior_for_source, prior_vectors
from workers.align.learning.turn_decision import LearnedDecision
from workers.align.params import AlignmentParams, load_params
from workers.align.pipeline import AlignmentResult, align_and_decide
from workers.align.setting_fields import SettingsError, in_words

PRE_ALIGN_TASK = "backend.alignments.tasks.pre_align"
DIAGONAL_PARAMETER_SET = "diagonal baseline"
SHIPPED_PARAMETER_SET = "shipped defaults"
TALK_PARAMETER_SET = "TalkSumm HMM"
ENGINE_VERSION = f"tandem {VERSION}"
ALIGNABLE = [
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
]


@transaction.atomic
def parameter_set_get_or_create(
    *,
    project: Project,
    name: str,
    params: dict[str, Any],
    engine_version: str,
    actor: User | None = None,
    learned: dict[str, Any] | None = None,
) -> ParameterSet:
    """`params` as given: the engine's, or the provenance of labels from elsewhere (the
    corpus's own pre-alignment, an imported project's); `learned`, a learned decision fitted
    with them (`workers.align.learning.turn_decision`)."""
    parameter_set, _ = ParameterSet.objects.get_or_create(
        project=project,
        name=name,
        defaults={
            "params": params,
            "engine_version": engine_version,
            "created_by": actor,
            "learned": learned,
        },
    )
    return parameter_set


def parameter_set_create(
    *, project: Project, name: str, params: Any, engine_version: str, actor: User
) -> ParameterSet:
    """A lead's own aligner configuration: checked against the aligner it names and stored
    whole (every setting, defaults included), so it keeps its meaning when a default changes."""
    try:
        checked = AlignmentParams.from_dict(params)
    except SettingsError as error:
        raise InvalidInput(str(error), field="params") from error
    return parameter_set_get_or_create(
        project=project,
        name=name,
        params=checked.to_dict(),
        engine_version=engine_version,
        actor=actor,
    )


@transaction.atomic
def pre_alignment_record(
    *,
    document: Document,
    parameter_set: ParameterSet | None,
    labels: Sequence[int],
    confidences: Sequence[float] = (),
    params: dict[str, Any] | None = None,
    engine_version: str = "",
    warnings: Sequence[Finding] = (),
    run_correlation: float | None = None,
    calibration: PreAlignment.Calibration = PreAlignment.Calibration.NONE,
) -> PreAlignment:
    """Store (or replace) the proposal for this document and parameter set. `confidences`
    may be empty when the source gives none (e.g. the corpus's own initial alignment);
    `warnings`, what the engine found degenerate in it, shown to the project's leads;
    `run_correlation` and `calibration`, that of the decision that calibrated the
    confidences, and which one it was."""
    labels = [int(label) for label in labels]
    confidences = [float(value) for value in confidences]
    _check_labels(labels, document, what="labels")
    if confidences and len(confidences) != document.turn_count:
        raise InvalidInput(
            f"{len(confidences)} confidences for {document.turn_count} turns.", field="confidences"
        )
    pre_alignment, _ = PreAlignment.objects.update_or_create(
        document=document,
        parameter_set=parameter_set,
        defaults={
            "labels": labels,
            "confidences": confidences,
            "run_correlation": run_correlation if confidences else None,
            "calibration": calibration if confidences else PreAlignment.Calibration.NONE,
            "warnings": [finding.as_dict() for finding in warnings],
            "params": params if params is not None else _params_of(parameter_set),
            "engine_version": engine_version,
            "computed_at": timezone.now(),
            "pair_confidences": pair_confidences_to_store(labels, confidences),
        },
    )
    Document.objects.filter(pk=document.pk, status=Document.Status.IMPORTED).update(
        status=Document.Status.PRE_ALIGNED
    )
    return pre_alignment


def shipped_parameter_set(project: Project) -> ParameterSet:
    """The engine's defaults tuned on public_meetings for documents from outside the corpus
    (fold A's, with lexical vectors, which a new project's few texts need no training for):
    78.6 % of turns right on meetings aligned one at a time, cross-fitted, where the diagonal
    gets about 20 %."""
    return parameter_set_get_or_create(
        project=project,
        name=SHIPPED_PARAMETER_SET,
        params=load_params(new_document_defaults()).to_dict(),
        engine_version=ENGINE_VERSION,
    )


def diagonal_parameter_set(project: Project) -> ParameterSet:
    """The paper's first-iteration aligner: no gold to tune on yet and no vectors needed."""
    return parameter_set_get_or_create(
        project=project,
        name=DIAGONAL_PARAMETER_SET,
        params=AlignmentParams.of("diagonal").to_dict(),
        engine_version=ENGINE_VERSION,
    )


def talk_parameter_set(project: Project) -> ParameterSet:
    """A talk project's starting aligner: TalkSumm's HMM with the paper's values (lambda
    0.75, gamma 0.5, delta 0.33, epsilon 0.1), which tuning on the project's own gold may
    then replace; not the meeting corpus's tuned values, which were fitted to reports."""
    return parameter_set_get_or_create(
        project=project,
        name=TALK_PARAMETER_SET,
        params=AlignmentParams.of("hmm").to_dict(),
        engine_version=ENGINE_VERSION,
    )


def alignment_params(parameter_set: ParameterSet) -> AlignmentParams:
    try:
        return AlignmentParams.from_dict(parameter_set.params)
    except SettingsError as error:
        raise InvalidInput(
            f"Parameter set {parameter_set.name!r} is not an aligner configuration: {error}",
            field="parameter_set",
        ) from error


def pre_align_start(
    *, actor: User, project: Project, documents: Iterable[Document], parameter_set: ParameterSet
) -> Job:
    """Queue the pre-alignment of `documents` with `parameter_set` on the cpu queue."""
    documents = list(documents)
    if parameter_set.project_id != project.pk:
        raise InvalidInput(
            f"Project {project.pk} has no parameter set {parameter_set.pk}.", field="parameter_set"
        )
    alignment_params(parameter_set)
    if not documents:
        raise InvalidInput("There is no document to pre-align.", field="documents")
    foreign = sorted(document.pk for document in documents if document.project_id != project.pk)
    if foreign:
        raise InvalidInput(missing_documents(project.pk, foreign), field="documents")
    unready = sorted(document.pk for document in documents if document.status not in ALIGNABLE)
    if unready:
        raise InvalidInput(
            f"Documents {in_words(map(str, unready))} are not imported yet (or failed to import).",
            field="documents",
        )
    with transaction.atomic():
        job = job_create(
            kind=Job.Kind.PRE_ALIGN,
            project=project,
            document=documents[0] if len(documents) == 1 else None,
            created_by=actor,
            arguments={
                "parameter_set": parameter_set.pk,
                "documents": [document.pk for document in documents],
            },
        )
        record_event(
            actor=actor,
            action="pre_alignment.start",
            target=job,
            project=project,
            parameter_set=parameter_set.pk,
            documents=len(documents),
        )
    return job_submit(job=job, task_name=PRE_ALIGN_TASK)


def pre_align_run(*, job_id: int, task_id: str | None = None) -> None:
    """The pre-alignment job's body. Each document is aligned outside any transaction and
    stored in one, so a document is never half pre-aligned; a cancel stops the job between
    documents. A redelivered job resumes: documents it already stored are not redone."""
    job = job_begin(job_id=job_id, task_id=task_id)
    if job is None:
        return
    parameter_set = ParameterSet.objects.filter(pk=job.arguments["parameter_set"]).first()
    if parameter_set is None:
        job_fail(job_id=job_id, error="The parameter set was deleted before the job ran.")
        return
    try:
        params = alignment_params(parameter_set)
    except InvalidInput as error:
        job_fail(job_id=job_id, error=error.message)
        return
    vectors = stored_vectors = None
    if params.aligner != "diagonal" and params.scoring.method == "embedding":
        if job.project_id is None:
            raise ValueError(f"pre-alignment job {job_id} belongs to no project")
        job_report_progress(job_id=job_id, progress=0.0, message="loading word vectors")
        stored_vectors = vectors_for(project_id=job.project_id, settings=params.vectors)
        vectors = vectors_load(vectors_id=stored_vectors.pk)
    learned = None
    if parameter_set.learned is not None:
        try:
            learned = LearnedDecision.from_dict(parameter_set.learned)
        except (KeyError, TypeError, ValueError) as error:
            job_fail(
                job_id=job_id,
                error=f"The parameter set's learned decision cannot be applied: {error}",
            )
            return
    project = None if job.project_id is None else Project.objects.filter(pk=job.project_id).first()
    prior = learned is None and takes_prior(params, stored_vectors, project)
    calibration = (
        PreAlignment.Calibration.LEARNED
        if learned is not None
        else PreAlignment.Calibration.PRIOR
        if prior
        else PreAlignment.Calibration.NONE
    )
    document_ids = job.arguments["documents"]
    done, resumed = [], []
    warnings: list[dict[str, Any]] = []
    for position, document_id in enumerate(document_ids):
        document = Document.objects.filter(pk=document_id).first()
        if document is None:
            continue
        stored = PreAlignment.objects.filter(
            document=document, parameter_set=parameter_set, computed_at__gte=job.started_at
        ).first()
        if stored is None:
            decision = prior_for_source(document.source, params) if prior else learned
            result, findings = align_document(document, params, vectors, decision)
            with transaction.atomic():
                if job_lock_if_running(job_id=job_id, task_id=task_id) is None:
                    return
                stored = pre_alignment_record(
                    document=document,
                    parameter_set=parameter_set,
                    labels=result.labels.tolist(),
                    confidences=result.confidence.tolist(),
                    params=params.to_dict(),
                    engine_version=ENGINE_VERSION,
                    warnings=findings,
                    run_correlation=None if decision is None else decision.run_correlation,
                    calibration=calibration,
                )
        else:
            resumed.append(document_id)
        done.append(stored.pk)
        warnings += [{"document": document_id, **finding} for finding in stored.warnings]
        job_report_progress(
            job_id=job_id,
            progress=(position + 1) / len(document_ids),
            message=f"{position + 1} of {counted(len(document_ids), 'document')} pre-aligned",
        )
    with transaction.atomic():
        if job_lock_if_running(job_id=job_id, task_id=task_id) is None:
            return
        job_succeed(
            job=job,
            result={
                "pre_alignments": done,
                "resumed": resumed,
                "parameter_set": parameter_set.pk,
                "warnings": warnings,
            },
            message=_done_message(len(done), warnings),
        )


def takes_prior(
    params: AlignmentParams, vectors: WordVectors | None, project: Project | None
) -> bool:
    """Whether pre-alignments without a learned decision get a shipped prior
    (`workers.align.learning.prior`: a calibration, with corrections for lexical vectors):
    for parameters one was fitted to read, with `vectors`
    (the project's, as `vectors_for` chose them) of the kind it was fitted on, not a lead's
    upload whatever the parameters name, in a project that learns decisions (one that
    switched learning off keeps the engine's own confidence throughout)."""
    kind = prior_vectors(params)
    if project is None or vectors is None or kind is None:
        return False
    return engine_vectors_kind(vectors) == kind and learns_decision(project.settings)


def _done_message(documents: int, warnings: Sequence[dict[str, Any]]) -> str:
    warned = len({warning["document"] for warning in warnings})
    if not warned:
        return f"{counted(documents, 'document')} pre-aligned"
    return (
        f"{counted(documents, 'document')} pre-aligned; {warned} with warnings of a degenerate "
        "result (shown in the editor)"
    )


def align_document(
    document: Document,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    learned: LearnedDecision | None,
) -> tuple[AlignmentResult, list[Finding]]:
    """The engine's labels and confidences, and what `workers.align.diagnosis` finds
    degenerate in them (the diagonal's confidences, which no evidence backs, are not judged).
    A talk project's excluded sections (Abstract, Related Work...) are no candidates: the
    engine sees the other segments only and its labels are mapped back. When the list would
    leave no segment, every segment stays a candidate rather than nothing."""
    meeting = document_meeting(document)
    result = _align_candidates(meeting, kept_segments(document), params, vectors, learned)
    judged = result.confidence if params.aligner != "diagonal" else np.zeros(0)
    return result, diagnose_meeting(meeting, result.labels, judged)


def _align_candidates(
    meeting: Meeting,
    kept: np.ndarray | None,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    learned: LearnedDecision | None,
) -> AlignmentResult:
    if kept is None or not len(kept):
        return align_and_decide(meeting, params, vectors, learned)
    segments = meeting.report.segments
    candidates = tuple(
        replace(segments[position], index=index) for index, position in enumerate(kept)
    )
    result = align_and_decide(
        replace(meeting, report=replace(meeting.report, segments=candidates)),
        params,
        vectors,
        learned,
    )
    labels = np.where(result.labels >= 0, kept[np.maximum(result.labels, 0)], result.labels)
    return AlignmentResult(labels=labels, confidence=result.confidence)


def _check_labels(labels: Sequence[int], document: Document, *, what: str) -> None:
    if len(labels) != document.turn_count:
        raise InvalidInput(f"{len(labels)} {what} for {document.turn_count} turns.", field=what)
    for turn, label in enumerate(labels):
        if label != UNALIGNED and not 0 <= label < document.segment_count:
            raise InvalidInput(
                f"Turn {turn}: segment {label} is out of range 0..{document.segment_count - 1}.",
                field=what,
                turn=turn,
            )


def _params_of(parameter_set: ParameterSet | None) -> dict[str, Any]:
    return dict(parameter_set.params) if parameter_set else {}
