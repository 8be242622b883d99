"""Every endpoint for every kind of caller, from one table, so a new endpoint is one row.

Columns: lead, annotator and curator of project A, a signed-in non-member, an anonymous
caller, and a superuser who is not a member. `{other_*}` ids belong to project B while the URL
names A: they must be as invisible as ids that do not exist.
"""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backend.alignments.models import ParameterSet
from backend.alignments.services.annotations import annotation_submit
from backend.documents.services import document_audio_replace
from backend.documents.uploads import check_audio
from backend.jobs.models import Job
from backend.ratings.models import RatingAssignment
from backend.tuning.models import TuningRun
from tests.audio import named, sine_wav
from tests.domain import World, make_rating_study, make_word_vectors

ROLES = ("lead", "annotator", "curator", "outsider", "anonymous", "admin")
P = "/api/v1/projects/{project}"
RS = P + "/rating-studies/{study}"
D = P + "/documents/{document}"
IT = P + "/iterations/{iteration}"


def upload_body(world: World) -> dict:
    report = io.BytesIO(b"M. Dupont : Bonjour a tous.\n\nMme Durand : Merci.\n")
    report.name = "report.txt"
    transcript = io.BytesIO(b"1\n00:00:01,000 --> 00:00:02,000\nbonjour a tous\n")
    transcript.name = "transcript.srt"
    return {"report": report, "transcript": [transcript]}


def public_meetings_file(world: World) -> dict:
    side = {
        "doc": [{"id": "0_0_0", "text": "<nom> m. dupont </nom> <p> bonjour . </p>"}],
        "ctm": [{"id": "0_0_0", "text": "bonjour", "aligned": "0_0_0"}],
    }
    file = io.BytesIO(json.dumps({"m1": {"initial": side, "final": side}}).encode())
    file.name = "meetings.json"
    return {"file": file}


def vectors_file(world: World) -> dict:
    file = io.BytesIO(b"2 3\nbonjour 1 0 0\nmerci 0 1 0\n")
    file.name = "vectors.vec"
    return {"file": file}


def recorded(document) -> None:
    """The document gets a recording (a second of tone); the request needs no body."""
    recording = SimpleUploadedFile("meeting.wav", sine_wav(1.0), content_type="audio/wav")
    document_audio_replace(actor=None, document=document, audio=check_audio(recording))


def recording_file(world: World) -> dict:
    return {"audio": named(sine_wav(1.0), "meeting.wav")}


def rating_study(world: World):
    """The annotator rates in it; made once per test, whichever needs it first."""
    if not hasattr(world, "study"):
        world.study = make_rating_study(world.project, world.document, world.annotator)
        world.other_study = make_rating_study(
            world.other_project, world.other_document, world.annotator
        )
    return world.study


def rating_body(world: World) -> dict:
    assignment = RatingAssignment.objects.filter(item__study=rating_study(world)).first()
    return {"assignment": assignment.pk, "answer": "yes"}


def study_body(world: World) -> dict:
    return {"name": "s", "sample_size": 1, "raters": [world.annotator.pk], "raters_per_pair": 1}


def one_edit(world: World) -> dict:
    return {"version": 0, "operations": [{"action": "unalign", "first_turn": 0, "last_turn": 1}]}


def submitted_then_one_edit(world: World) -> dict:
    """Adjudication compares submissions: the assigned annotator's comes first."""
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    return one_edit(world)


def submitted_then_version_0(world: World) -> dict:
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    return {"version": 0}


def pre_align_body(world: World) -> dict:
    parameter_set = ParameterSet.objects.get(project=world.project, name="engine")
    return {"parameter_set": parameter_set.pk, "documents": [world.document.pk]}


def tuning_body(world: World) -> dict:
    annotation_submit(annotator=world.annotator, document=world.document, version=0)
    return {"gold_documents": [world.document.pk], "grid": {"dp.power": [1.0, 2.0]}}


def tuning_run(project) -> TuningRun:
    """A recorded run, enough to read; starting one is the worker tests' business."""
    return TuningRun.objects.create(
        project=project,
        job=Job.objects.create(project=project, kind=Job.Kind.TUNE),
        gold_documents=[],
        base_params={},
        grid={},
        stages=[],
        settings_count=0,
        planned_evaluations=0,
    )


# (what, method, url, body or body factory, expected status for ROLES)
MATRIX = [
    ("list projects", "get", "/api/v1/projects/", None, (200, 200, 200, 200, 401, 200)),
    ("create project", "post", "/api/v1/projects/", {"name": "N"}, (201, 201, 201, 201, 401, 201)),
    ("read project", "get", P + "/", None, (200, 200, 200, 403, 401, 200)),
    ("update project", "patch", P + "/", {"description": "d"}, (200, 403, 403, 403, 401, 200)),
    ("delete project", "delete", P + "/", None, (204, 403, 403, 403, 401, 204)),
    ("read other project", "get", "/api/v1/projects/{other_project}/", None,
     (403, 403, 403, 403, 401, 200)),
    ("list members", "get", P + "/members/", None, (200, 200, 200, 403, 401, 200)),
    ("add member", "post", P + "/members/", lambda w: {"user": w.outsider.pk, "role": "annotator"},
     (201, 403, 403, 403, 401, 201)),
    ("change member", "patch", P + "/members/{membership}/", {"role": "lead"},
     (200, 403, 403, 403, 401, 200)),
    ("remove member", "delete", P + "/members/{membership}/", None, (204, 403, 403, 403, 401, 204)),
    ("change member of other project", "patch", P + "/members/{other_membership}/",
     {"role": "annotator"}, (404, 403, 403, 403, 401, 404)),
    ("list documents", "get", P + "/documents/", None, (200, 200, 200, 403, 401, 200)),
    ("upload document", "post", P + "/documents/", upload_body, (202, 403, 403, 403, 401, 202)),
    ("read document", "get", D + "/", None, (200, 200, 200, 403, 401, 200)),
    ("read unassigned document", "get", P + "/documents/{unassigned_document}/", None,
     (200, 404, 200, 403, 401, 200)),
    ("read document of other project", "get", P + "/documents/{other_document}/", None,
     (404, 404, 404, 403, 401, 404)),
    ("update document", "patch", D + "/", {"name": "renamed"}, (200, 403, 403, 403, 401, 200)),
    ("delete document", "delete", D + "/", None, (204, 403, 403, 403, 401, 204)),
    ("open editor", "get", D + "/editor/", None, (200, 200, 200, 403, 401, 200)),
    ("hear recording", "get", D + "/audio/", lambda w: recorded(w.document),
     (200, 200, 200, 403, 401, 200)),
    ("hear recording of unassigned document", "get",
     P + "/documents/{unassigned_document}/audio/", lambda w: recorded(w.unassigned_document),
     (200, 404, 200, 403, 401, 200)),
    ("hear recording of other project's document", "get",
     P + "/documents/{other_document}/audio/", lambda w: recorded(w.other_document),
     (404, 404, 404, 403, 401, 404)),
    ("add recording", "put", D + "/audio/", recording_file, (200, 403, 403, 403, 401, 200)),
    ("remove recording", "delete", D + "/audio/", lambda w: recorded(w.document),
     (204, 403, 403, 403, 401, 204)),
    ("open editor on other project's document", "get",
     P + "/documents/{other_document}/editor/", None, (404, 404, 404, 403, 401, 404)),
    # Only assignees annotate an assigned document (issue #14): leads adjudicate instead.
    ("edit annotation", "post", D + "/annotation/", one_edit, (403, 200, 403, 403, 401, 403)),
    ("edit annotation of unassigned document", "post",
     P + "/documents/{unassigned_document}/annotation/", one_edit, (200, 404, 200, 403, 401, 200)),
    ("edit annotation of other project's document", "post",
     P + "/documents/{other_document}/annotation/", one_edit, (404, 404, 404, 403, 401, 404)),
    ("submit annotation", "post", D + "/annotation/submit/", {"version": 0},
     (403, 200, 403, 403, 401, 403)),
    ("reopen unsubmitted annotation", "post", D + "/annotation/reopen/", {"version": 0},
     (409, 409, 409, 403, 401, 409)),
    ("reopen annotation of other project's document", "post",
     P + "/documents/{other_document}/annotation/reopen/", {"version": 0},
     (404, 404, 404, 403, 401, 404)),
    ("save reading position", "put", D + "/position/", {"turn": 1},
     (204, 204, 204, 403, 401, 204)),
    ("save reading position in other project's document", "put",
     P + "/documents/{other_document}/position/", {"turn": 1}, (404, 404, 404, 403, 401, 404)),
    ("list documents needing adjudication", "get", P + "/needs-adjudication/", None,
     (200, 403, 200, 403, 401, 200)),
    ("open adjudication", "get", D + "/adjudication/", None, (200, 403, 200, 403, 401, 200)),
    ("open adjudication of other project's document", "get",
     P + "/documents/{other_document}/adjudication/", None, (404, 403, 404, 403, 401, 404)),
    ("edit adjudication", "post", D + "/adjudication/", submitted_then_one_edit,
     (200, 403, 200, 403, 401, 200)),
    ("complete adjudication", "post", D + "/adjudication/complete/", submitted_then_version_0,
     (200, 403, 200, 403, 401, 200)),
    ("reopen adjudication that is not completed", "post", D + "/adjudication/reopen/",
     {"version": 0}, (409, 403, 409, 403, 401, 409)),
    ("edit adjudication of other project's document", "post",
     P + "/documents/{other_document}/adjudication/", one_edit, (404, 403, 404, 403, 401, 404)),
    ("list iterations", "get", P + "/iterations/", None, (200, 200, 200, 403, 401, 200)),
    ("open iteration", "post", P + "/iterations/",
     lambda w: {"documents": [w.unassigned_document.pk]}, (201, 403, 403, 403, 401, 201)),
    ("read iteration", "get", IT + "/", None, (200, 200, 200, 403, 401, 200)),
    ("propose a batch", "get", P + "/iterations/proposal/?policy=diversity&size=2", None,
     (200, 403, 403, 403, 401, 200)),
    ("close closed iteration", "post", IT + "/close/", {}, (409, 403, 403, 403, 401, 409)),
    ("cancel closed iteration", "post", IT + "/cancel/", None, (409, 403, 403, 403, 401, 409)),
    ("add to closed iteration", "post", IT + "/documents/",
     lambda world: {"documents": [world.unassigned_document.pk]},
     (409, 403, 403, 403, 401, 409)),
    ("pre-align closed iteration", "post", IT + "/pre-align/", None,
     (409, 403, 403, 403, 401, 409)),
    ("tune iteration without gold", "post", IT + "/tune/", {}, (400, 403, 403, 403, 401, 400)),
    ("promote without tuning run", "post", IT + "/promote/", {}, (409, 403, 403, 403, 401, 409)),
    ("read missing record", "get", IT + "/documents/{document}/", None,
     (404, 403, 403, 403, 401, 404)),
    ("read iteration of other project", "get", P + "/iterations/{other_iteration}/", None,
     (404, 404, 404, 403, 401, 404)),
    ("accuracy dashboard", "get", P + "/dashboard/accuracy/", None, (200, 403, 403, 403, 401, 200)),
    ("tuning dashboard before any run", "get", P + "/dashboard/tuning/", None,
     (404, 403, 403, 403, 401, 404)),
    ("effort dashboard", "get", P + "/dashboard/effort/", None, (200, 403, 403, 403, 401, 200)),
    ("effort per document", "get", P + "/dashboard/effort/documents/?iteration={iteration}", None,
     (200, 403, 403, 403, 401, 200)),
    ("effort per document of other project's iteration", "get",
     P + "/dashboard/effort/documents/?iteration={other_iteration}", None,
     (404, 403, 403, 403, 401, 404)),
    ("corpus dashboard", "get", P + "/dashboard/corpus/", None, (200, 403, 403, 403, 401, 200)),
    ("jobs dashboard", "get", P + "/dashboard/jobs/", None, (200, 403, 403, 403, 401, 200)),
    ("agreement dashboard", "get", P + "/dashboard/agreement/", None,
     (200, 403, 403, 403, 401, 200)),
    ("list parameter sets", "get", P + "/parameter-sets/", None, (200, 200, 200, 403, 401, 200)),
    ("create parameter set", "post", P + "/parameter-sets/", {"name": "x", "params": {}},
     (201, 403, 403, 403, 401, 201)),
    ("list jobs", "get", P + "/jobs/", None, (200, 403, 403, 403, 401, 200)),
    ("read job", "get", P + "/jobs/{job}/", None, (200, 403, 403, 403, 401, 200)),
    ("read job of other project", "get", P + "/jobs/{other_job}/", None,
     (404, 403, 403, 403, 401, 404)),
    ("cancel job", "post", P + "/jobs/{job}/cancel/", None, (200, 403, 403, 403, 401, 200)),
    ("cancel job of other project", "post", P + "/jobs/{other_job}/cancel/", None,
     (404, 403, 403, 403, 401, 404)),
    ("start pre-alignment", "post", P + "/pre-alignments/", pre_align_body,
     (202, 403, 403, 403, 401, 202)),
    ("list word vectors", "get", P + "/word-vectors/", None, (200, 403, 403, 403, 401, 200)),
    ("retrain word vectors", "post", P + "/word-vectors/", None, (202, 403, 403, 403, 401, 202)),
    ("upload word vectors", "post", P + "/word-vectors/upload/", vectors_file,
     (201, 403, 403, 403, 401, 201)),
    ("delete word vectors", "delete", P + "/word-vectors/{word_vectors}/", None,
     (204, 403, 403, 403, 401, 204)),
    ("delete word vectors of other project", "delete", P + "/word-vectors/{other_word_vectors}/",
     None, (404, 403, 403, 403, 401, 404)),
    ("list tuning runs", "get", P + "/tuning-runs/", None, (200, 403, 403, 403, 401, 200)),
    ("start tuning run", "post", P + "/tuning-runs/", tuning_body, (202, 403, 403, 403, 401, 202)),
    ("read tuning run", "get", P + "/tuning-runs/{tuning_run}/", None,
     (200, 403, 403, 403, 401, 200)),
    ("read tuning run of other project", "get", P + "/tuning-runs/{other_tuning_run}/", None,
     (404, 403, 403, 403, 401, 404)),
    ("read audit trail", "get", P + "/audit-events/", None, (200, 403, 403, 403, 401, 200)),
    ("list own tokens", "get", "/api/v1/auth/tokens/", None, (200, 200, 200, 200, 401, 200)),
    ("create token", "post", "/api/v1/auth/tokens/", {"name": "cli"},
     (201, 201, 201, 201, 401, 201)),
    ("preview export", "get", P + "/exports/preview/", None, (200, 403, 403, 403, 401, 200)),
    ("export JSONL", "get", P + "/exports/pairs.jsonl", None, (200, 403, 403, 403, 401, 200)),
    ("export CSV", "get", P + "/exports/pairs.csv", None, (200, 403, 403, 403, 401, 200)),
    ("export parallel text", "get", P + "/exports/parallel.zip", None,
     (200, 403, 403, 403, 401, 200)),
    # The world's project has no pair to export: 409 (a dataset of no record cannot load).
    ("export Hugging Face dataset", "get", P + "/exports/huggingface.zip", None,
     (409, 403, 403, 403, 401, 409)),
    ("export public_meetings JSON", "get", P + "/exports/public-meetings.json", None,
     (200, 403, 403, 403, 401, 200)),
    ("import public_meetings JSON", "post", P + "/documents/public-meetings/",
     public_meetings_file, (201, 403, 403, 403, 401, 201)),
    ("list rating studies", "get", P + "/rating-studies/", None, (200, 403, 403, 403, 401, 200)),
    # The world's short documents give no pair to sample: the lead gets past the roles to 400.
    ("create rating study", "post", P + "/rating-studies/", study_body,
     (400, 403, 403, 403, 401, 400)),
    ("list assigned rating studies", "get", P + "/rating-studies/assigned/", None,
     (200, 200, 200, 403, 401, 200)),
    ("read rating study", "get", RS + "/", None, (200, 403, 403, 403, 401, 200)),
    ("read rating study of other project", "get", P + "/rating-studies/{other_study}/", None,
     (404, 403, 403, 403, 401, 404)),
    ("read rating results", "get", RS + "/results/", None, (200, 403, 403, 403, 401, 200)),
    ("next pair to rate", "get", RS + "/next/", None, (404, 200, 404, 403, 401, 404)),
    ("rate a pair", "post", RS + "/ratings/", rating_body, (404, 200, 404, 403, 401, 404)),
    ("undo the last rating", "post", RS + "/undo/", None, (404, 409, 404, 403, 401, 404)),
    ("preview a settings change", "post", P + "/settings-preview/",
     {"settings": {"report_unit": "sections"}}, (200, 403, 403, 403, 401, 200)),
    # The help is the documentation: anyone reads it, signed in or not.
    ("list help pages", "get", "/api/v1/help/", None, (200, 200, 200, 200, 200, 200)),
    ("read a help page", "get", "/api/v1/help/ratings/", None, (200, 200, 200, 200, 200, 200)),
    ("search the help", "get", "/api/v1/help/search/?q=seed", None,
     (200, 200, 200, 200, 200, 200)),
]  # fmt: skip

CASES = [
    pytest.param(method, url, body, role, expected, id=f"{what} as {role}")
    for what, method, url, body, statuses in MATRIX
    for role, expected in zip(ROLES, statuses, strict=True)
]


def _url(template: str, world: World) -> str:
    return template.format(
        project=world.project.pk,
        other_project=world.other_project.pk,
        document=world.document.pk,
        unassigned_document=world.unassigned_document.pk,
        other_document=world.other_document.pk,
        membership=world.annotator_membership.pk,
        other_membership=world.other_membership.pk,
        job=world.job.pk,
        iteration=world.iteration.pk,
        other_iteration=world.other_iteration.pk,
        other_job=world.other_job.pk,
        **_tuning_runs(template, world),
        **_word_vectors(template, world),
        **_rating_studies(template, world),
    )


def _rating_studies(template: str, world: World) -> dict:
    if "study}" not in template:
        return {}
    rating_study(world)
    return {"study": world.study.pk, "other_study": world.other_study.pk}


def _tuning_runs(template: str, world: World) -> dict:
    if "tuning_run}" not in template:
        return {}
    return {
        "tuning_run": tuning_run(world.project).pk,
        "other_tuning_run": tuning_run(world.other_project).pk,
    }


def _word_vectors(template: str, world: World) -> dict:
    if "word_vectors}" not in template:
        return {}
    return {
        "word_vectors": make_word_vectors(world.project).pk,
        "other_word_vectors": make_word_vectors(world.other_project).pk,
    }


@pytest.mark.parametrize(("method", "url", "body", "role", "expected"), CASES)
def test_endpoint_answers_each_role(world, method, url, body, role, expected):
    data = body(world) if callable(body) else body
    is_upload = isinstance(data, dict) and bool({"report", "file", "audio"} & set(data))
    response = getattr(world.client(role), method)(
        _url(url, world), data, format="multipart" if is_upload else "json"
    )

    assert response.status_code == expected, response.content[:500]
    if expected in (401, 403, 404):
        assert response.json()["detail"]
