"""Training, storing and loading a project's word vectors.

Training runs on the `cpu` queue. Adding documents asks for a retraining, debounced: while a
training job is still queued, more documents join it instead of queueing another, since the
job reads the project's texts only when it starts.
"""

import io
import logging
from collections import OrderedDict
from dataclasses import asdict

import numpy as np
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from gensim.models import KeyedVectors

from backend.core.errors import ServiceUnavailable
from backend.jobs.models import Job
from backend.jobs.services import (
    job_begin,
    job_create,
    job_lock_if_running,
    job_report_progress,
    job_submit,
    job_succeed,
)
from backend.projects.models import Project
from backend.vectors.models import WordVectors
from backend.vectors.selectors import project_sentences
from workers.align.params import AlignmentParams
from workers.align.scoring.vectors import TrainingSettings, train_vectors, training_key

logger = logging.getLogger(__name__)

TRAIN_TASK = "workers.tasks.vectors.train_vectors"
KEPT_VERSIONS = 3
"""Older trainings are deleted, unless a tuning run still uses them."""
_LOADED_LIMIT = 4
_loaded: OrderedDict[int, KeyedVectors] = OrderedDict()


def project_training_settings(project: Project) -> TrainingSettings:
    """The promoted parameter set's vector settings, so the background retraining prepares
    the vectors the next pre-alignment will ask for."""
    promoted = project.promoted_parameter_set
    if promoted is not None and "vectors" in promoted.params:
        return TrainingSettings(**promoted.params["vectors"])
    return AlignmentParams().vectors


def vectors_train_start(*, project: Project, actor=None) -> Job:
    """The queued training job of the project, or a new one (503 when the broker is down)."""
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project.pk).first()
        pending = Job.objects.filter(
            project=project, kind=Job.Kind.TRAIN_VECTORS, status=Job.Status.QUEUED
        ).first()
        if pending is not None:
            return pending
        job = job_create(
            kind=Job.Kind.TRAIN_VECTORS,
            project=project,
            created_by=actor,
            arguments={"settings": asdict(project_training_settings(project))},
        )
    return job_submit(job=job, task_name=TRAIN_TASK)


def vectors_refresh_soon(*, project_id: int) -> None:
    """Called after documents are stored: a broker that is down must not undo an import, and
    the next pre-alignment or tuning run trains the vectors itself if they are stale."""
    project = Project.objects.filter(pk=project_id).select_related("promoted_parameter_set")
    if not project.exists():
        return
    try:
        vectors_train_start(project=project.get())
    except ServiceUnavailable as error:
        logger.warning("Word vectors of project %s not retrained: %s", project_id, error)


def vectors_train_run(*, job_id: int, task_id: str | None = None) -> None:
    job = job_begin(job_id=job_id, task_id=task_id)
    if job is None:
        return
    job_report_progress(job_id=job_id, progress=0.05, message="reading the project's texts")
    settings = TrainingSettings(**job.arguments.get("settings", {}))
    vectors = vectors_for(project_id=job.project_id, settings=settings)
    with transaction.atomic():
        if job_lock_if_running(job_id=job_id) is None:
            return
        job_succeed(
            job=job,
            result={
                "word_vectors": vectors.pk,
                "vocabulary_size": vectors.vocabulary_size,
                "sentences": vectors.sentence_count,
                "documents": vectors.document_count,
            },
        )


def vectors_for(*, project_id: int, settings: TrainingSettings) -> WordVectors:
    """The vectors of the project's current texts, trained now when they are missing or stale
    (minutes for a large project, so only workers call this)."""
    sentences, document_count = project_sentences(project_id=project_id)
    key = training_key(sentences, settings)
    stored = WordVectors.objects.filter(project_id=project_id, training_key=key).first()
    if stored is not None:
        return stored
    vectors = train_vectors(sentences, settings, cache_directory=None)
    try:
        with transaction.atomic():
            stored = WordVectors.objects.create(
                project_id=project_id,
                training_key=key,
                settings=asdict(settings),
                document_count=document_count,
                sentence_count=len(sentences),
                vocabulary_size=len(vectors.index_to_key),
                dimensions=vectors.vector_size,
                data=_encode(vectors),
            )
    except IntegrityError:
        return WordVectors.objects.get(project_id=project_id, training_key=key)
    _forget_old_versions(project_id)
    return stored


def vectors_load(*, vectors_id: int) -> KeyedVectors:
    """Loaded once per worker process and version: tuning slices load the same vectors many
    times."""
    if vectors_id in _loaded:
        _loaded.move_to_end(vectors_id)
        return _loaded[vectors_id]
    data = WordVectors.objects.values_list("data", flat=True).get(pk=vectors_id)
    vectors = _decode(bytes(data))
    _loaded[vectors_id] = vectors
    while len(_loaded) > _LOADED_LIMIT:
        _loaded.popitem(last=False)
    return vectors


def _encode(vectors: KeyedVectors) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        words=np.array(vectors.index_to_key, dtype=str),
        vectors=vectors.vectors.astype(np.float32),
    )
    return buffer.getvalue()


def _decode(data: bytes) -> KeyedVectors:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        words, matrix = archive["words"], archive["vectors"]
    vectors = KeyedVectors(vector_size=matrix.shape[1])
    vectors.add_vectors([str(word) for word in words], matrix)
    return vectors


def _forget_old_versions(project_id: int) -> None:
    older = WordVectors.objects.filter(project_id=project_id).order_by("-trained_at", "-id")
    for old in older.only("pk")[KEPT_VERSIONS:]:
        try:
            with transaction.atomic():
                old.delete()
        except ProtectedError:
            continue
