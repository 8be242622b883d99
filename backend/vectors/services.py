"""Training, uploading, storing and loading a project's word vectors.

Which vectors a project's alignments use, first that applies: the pretrained vectors its lead
uploaded last; the words of the project found in the server's pretrained file
(`TANDEM_WORD_VECTORS`); lexical vectors of the project's words, when its parameters ask for
them (the shipped defaults for new projects do: they need no training); word2vec trained on
the project's own texts. Training runs on the
`cpu` queue. Adding documents asks for a retraining, debounced: while a training job is still
queued, more documents join it instead of queueing another, since the job reads the project's
texts only when it starts.
"""

import hashlib
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.db.models import RestrictedError
from django.utils import timezone
from gensim.models import KeyedVectors

from backend.audit.services import record_event
from backend.core.errors import Conflict, InvalidInput, ServiceUnavailable
from backend.documents.uploads import check_total_size
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
from workers.align.document_model import ReaderError
from workers.align.folds import new_document_defaults
from workers.align.params import load_params
from workers.align.scoring.lexical import lexical_vectors, sentence_words
from workers.align.scoring.vectors import (
    TrainingSettings,
    load_vectors,
    read_vectors,
    restricted,
    train_vectors,
    training_key,
)
from workers.align.tokenizers import primary_language

logger = logging.getLogger(__name__)

TRAIN_TASK = "backend.vectors.tasks.train_vectors"
KEPT_VERSIONS = 3
"""Older trainings are deleted, unless a tuning run still uses them."""
_LOADED_LIMIT = 4
_loaded: OrderedDict[tuple[int, str], KeyedVectors] = OrderedDict()


def project_training_settings(project: Project) -> TrainingSettings:
    """The promoted parameter set's vector settings (else the shipped defaults' for new
    documents), so the background retraining prepares the vectors the next pre-alignment will
    ask for."""
    promoted = project.promoted_parameter_set
    if promoted is not None and "vectors" in promoted.params:
        return TrainingSettings(**promoted.params["vectors"])
    return load_params(new_document_defaults()).vectors


def vectors_train_start(*, project: Project, actor: User | None = None) -> Job:
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
    if job.project_id is None:
        raise ValueError(f"job {job_id} trains word vectors for no project")
    vectors = vectors_for(project_id=job.project_id, settings=settings)
    with transaction.atomic():
        if job_lock_if_running(job_id=job_id, task_id=task_id) is None:
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
    """The vectors the project's alignments use now: its last upload, else the server's
    pretrained file cut down to the project's words, else vectors of the project's current
    texts, trained now when they are missing or stale (minutes for a large project, so only
    workers call this)."""
    uploaded = uploaded_vectors(project_id=project_id)
    if uploaded is not None:
        return uploaded
    sentences, document_count = project_sentences(project_id=project_id)
    language = Project.objects.values_list("language", flat=True).get(pk=project_id)
    server_file = server_vectors_file(language)
    if server_file is not None:
        return _server_file_vectors(project_id, server_file, sentences, document_count)
    if settings.kind == "lexical":
        return _lexical_vectors(project_id, language, sentences, document_count)
    return _stored_or_made(
        project_id,
        training_key(sentences, settings),
        lambda: train_vectors(sentences, settings, cache_directory=None),
        origin=WordVectors.Origin.TRAINED,
        settings=asdict(settings),
        document_count=document_count,
        sentence_count=len(sentences),
    )


def _stored_or_made(
    project_id: int, key: str, make: Callable[[], KeyedVectors], **fields: Any
) -> WordVectors:
    """The project's vectors of this content key, else `make()` stored under it."""
    stored = WordVectors.objects.filter(project_id=project_id, training_key=key).first()
    if stored is not None:
        return stored
    return _store(project_id, key, make(), **fields)


def _store(project_id: int, key: str, vectors: KeyedVectors, **fields: Any) -> WordVectors:
    """A new version (or the one a concurrent worker stored first); the oldest go."""
    try:
        with transaction.atomic():
            stored = WordVectors.objects.create(
                project_id=project_id,
                training_key=key,
                vocabulary_size=len(vectors.index_to_key),
                dimensions=vectors.vector_size,
                data=_encode(vectors),
                **fields,
            )
    except IntegrityError:
        return WordVectors.objects.get(project_id=project_id, training_key=key)
    _forget_old_versions(project_id)
    return stored


def uploaded_vectors(*, project_id: int) -> WordVectors | None:
    return (
        WordVectors.objects.filter(project_id=project_id, origin=WordVectors.Origin.UPLOADED)
        .defer("data")
        .order_by("-trained_at", "-id")
        .first()
    )


def vectors_upload(*, actor: User, project: Project, upload: UploadedFile) -> WordVectors:
    """Store pretrained vectors a lead uploads; from now on the project's alignments and
    tuning runs use them instead of training. Uploading the same file again makes it the
    current one again."""
    check_total_size(upload.size or 0, limit=django_settings.TANDEM_MAX_VECTORS_BYTES)
    name = Path(upload.name or "vectors").name
    data = upload.read()
    try:
        vectors = read_vectors(data, name)
    except ReaderError as error:
        raise InvalidInput(f"{name}: {error.location}: {error.problem}.", field="file") from error
    key = f"upload-{hashlib.sha256(data).hexdigest()[:32]}"
    with transaction.atomic():
        stored = WordVectors.objects.filter(project=project, training_key=key).first()
        if stored is None:
            stored = _store(
                project.pk,
                key,
                vectors,
                origin=WordVectors.Origin.UPLOADED,
                file_name=name,
                settings={},
                document_count=0,
                sentence_count=0,
            )
        else:
            stored.trained_at = timezone.now()
            stored.save(update_fields=["trained_at"])
        record_event(
            actor=actor,
            action="word_vectors.upload",
            target=stored,
            project=project,
            file=name,
            words=stored.vocabulary_size,
            dimensions=stored.dimensions,
        )
    return stored


def vectors_delete(*, actor: User, vectors: WordVectors) -> None:
    """Remove uploaded or trained vectors (409 while a tuning run uses them); removing the
    last upload makes the project train its own vectors again."""
    with transaction.atomic():
        record_event(
            actor=actor,
            action="word_vectors.delete",
            target=vectors,
            project=vectors.project,
            origin=vectors.origin,
            file=vectors.file_name,
        )
        try:
            vectors.delete()
        except RestrictedError as error:
            raise Conflict("A tuning run uses these word vectors; delete the run first.") from error


def server_vectors_file(language: str) -> Path | None:
    """The server's pretrained file for a project's language: `TANDEM_WORD_VECTORS` is one
    path for every project, or `fr=/data/cc.fr.300.vec,en=/data/cc.en.300.vec` by language
    code (a bare path among them serves the other languages)."""
    by_language: dict[str, str] = {}
    for item in django_settings.TANDEM_WORD_VECTORS.split(","):
        code, separator, path = item.strip().partition("=")
        if separator and re.fullmatch(r"[A-Za-z]{2,3}", code.strip()):
            by_language[code.strip().lower()] = path.strip()
        elif item.strip():
            by_language[""] = item.strip()
    chosen = by_language.get(primary_language(language)) or by_language.get("")
    return Path(chosen) if chosen else None


def _server_file_vectors(
    project_id: int, path: Path, sentences: list[str], document_count: int
) -> WordVectors:
    """The project's words found in the server's file, stored like a training so that every
    worker and tuning run reads the same vectors; the key changes with the file or the texts."""
    stat = path.stat()
    identity = f"{path.resolve()}\n{stat.st_size}\n{stat.st_mtime_ns}\n"
    return _stored_or_made(
        project_id,
        "file-" + training_key([identity, *sentences], TrainingSettings())[:27],
        lambda: restricted(_server_file(str(path), stat.st_mtime_ns), sentence_words(sentences)),
        origin=WordVectors.Origin.SERVER_FILE,
        file_name=path.name,
        settings={},
        document_count=document_count,
        sentence_count=len(sentences),
    )


def _lexical_vectors(
    project_id: int, language: str, sentences: list[str], document_count: int
) -> WordVectors:
    """The project's words as lexical vectors (seconds, not a training), stored like a training
    so that every slice of a tuning run reads the same table; the key changes with the texts
    and the project's language."""
    return _stored_or_made(
        project_id,
        "lexical-" + training_key([language, *sentences], TrainingSettings())[:24],
        lambda: lexical_vectors(sentence_words(sentences), language),
        origin=WordVectors.Origin.LEXICAL,
        settings={"kind": "lexical", "language": language},
        document_count=document_count,
        sentence_count=len(sentences),
    )


@lru_cache(maxsize=1)
def _server_file(path: str, modified_ns: int) -> KeyedVectors:
    """Read once per worker process and file version (a pretrained file can take minutes)."""
    return load_vectors(path)


def vectors_load(*, vectors_id: int) -> KeyedVectors:
    """Loaded once per worker process and version: tuning slices load the same vectors many
    times. Cached by id and content key, since a database may give a deleted row's id to the
    next row (SQLite does)."""
    version = (
        vectors_id,
        WordVectors.objects.values_list("training_key", flat=True).get(pk=vectors_id),
    )
    if version in _loaded:
        _loaded.move_to_end(version)
        return _loaded[version]
    data = WordVectors.objects.values_list("data", flat=True).get(pk=vectors_id)
    vectors = _decode(bytes(data))
    _loaded[version] = vectors
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
        except RestrictedError:
            continue
