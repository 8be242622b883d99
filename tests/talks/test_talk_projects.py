"""Talk projects end to end on a real worker: a paper (Markdown or a PDF made here) and its
talk's transcript uploaded, imported as the paper's sentences under their sections, and
pre-aligned with TalkSumm's HMM."""

from dataclasses import replace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from backend.alignments.models import PreAlignment
from backend.alignments.services.pre_alignments import align_document, pre_alignment_record
from backend.documents.models import Document, ReportSegment
from backend.documents.selectors import document_meeting
from backend.documents.services import document_store_parsed, paper_report
from backend.projects.models import Project
from tests.align.paper_fixtures import SECTIONS, markdown_paper, pdf_paper, talk_srt, tei_paper
from tests.documents.test_import_job import wait_for
from tests.domain import make_user
from tests.exports.conftest import NO_LENGTH_FILTER, records
from tests.openapi import assert_matches_schema
from tests.tasks.conftest import wait_for_job
from workers.align.params import AlignmentParams
from workers.align.pipeline import align_meeting
from workers.align.readers import read_paper, read_transcript
from workers.align.scoring.similarity import ScoringParams


def create_talk_project(**settings) -> tuple[APIClient, dict]:
    client = APIClient()
    client.force_login(make_user("speaker"))
    body = {"name": "talks", "language": "en", "kind": "talk"}
    if settings:
        body["settings"] = settings
    response = client.post("/api/v1/projects/", body, format="json")
    assert response.status_code == 201, response.json()
    return client, assert_matches_schema(response, "POST")


def upload(client: APIClient, project_id: int, paper: tuple[str, bytes]):
    return client.post(
        f"/api/v1/projects/{project_id}/documents/",
        {
            "report": SimpleUploadedFile(*paper),
            "transcript": [SimpleUploadedFile("talk.srt", talk_srt())],
        },
        format="multipart",
    )


@pytest.mark.django_db
def test_a_talk_project_starts_with_the_hmm_promoted_and_a_meeting_project_does_not():
    client, project = create_talk_project()
    assert project["kind"] == "talk"
    promoted = Project.objects.get(pk=project["id"]).promoted_parameter_set
    assert promoted.params["aligner"] == "hmm"
    assert AlignmentParams.from_dict(promoted.params) == AlignmentParams.of("hmm")

    meeting = client.post("/api/v1/projects/", {"name": "meeting"}, format="json").json()
    assert meeting["kind"] == "meeting"
    assert meeting["promoted_parameter_set"] is None


@pytest.mark.django_db
def test_talk_settings_are_checked_by_name():
    client, project = create_talk_project()
    response = client.patch(
        f"/api/v1/projects/{project['id']}/",
        {"settings": {"report_unit": "paragraph"}},
        format="json",
    )
    assert response.status_code == 400
    assert "report_unit" in str(response.json())
    response = client.post("/api/v1/projects/", {"name": "x", "kind": "lecture"}, format="json")
    assert response.status_code == 400
    assert "kind" in str(response.json())


@pytest.mark.django_db
def test_a_file_named_pdf_that_is_not_one_is_refused_before_anything_is_stored():
    client, project = create_talk_project()
    response = upload(client, project["id"], ("paper.pdf", b"# Not a PDF\n\nHello."))
    assert response.status_code == 400
    assert "paper.pdf: this is not a PDF file" in str(response.json())
    response = upload(client, project["id"], ("paper.docx", b"PK\x03\x04"))
    assert response.status_code == 400
    assert "unsupported report format" in str(response.json())
    assert not Document.objects.exists()


def paper_sentences(excluding=()) -> list[tuple[str, int]]:
    """(section title, sentence count) of the fixture paper."""
    return [(title, body.count(". ") + 1) for title, body in SECTIONS if title not in excluding]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "paper",
    [("paper.md", markdown_paper), ("paper.pdf", pdf_paper), ("paper.tei.xml", tei_paper)],
)
def test_a_paper_and_its_talk_import_as_sentences_under_their_sections_and_pre_align_with_the_hmm(
    celery_worker_process, paper
):
    client, project = create_talk_project()
    response = upload(client, project["id"], (paper[0], paper[1]()))
    assert response.status_code == 202, response.json()

    job = wait_for(client, response["Location"])

    assert job["status"] == "succeeded", job
    count = sum(n for _, n in paper_sentences())
    assert job["message"] == f"imported: {count} segments, one per sentence"
    document = Document.objects.get(pk=job["result"]["document"])
    segments = list(ReportSegment.objects.filter(document=document))
    by_section: dict[str, int] = {}
    for segment in segments:
        by_section[segment.section] = by_section.get(segment.section, 0) + 1
    assert list(by_section.items()) == paper_sentences()
    assert segments[0].key == "s1.1"
    assert segments[0].speaker == ""
    editor = client.get(f"/api/v1/projects/{project['id']}/documents/{document.pk}/editor/")
    shown = assert_matches_schema(editor)
    assert [segment["section"] for segment in shown["segments"]] == [
        segment.section for segment in segments
    ]
    assert shown["excluded_sections"] == ["Abstract", "2 Related Work", "Acknowledgments"]

    promoted = Project.objects.get(pk=project["id"]).promoted_parameter_set
    started = client.post(
        f"/api/v1/projects/{project['id']}/pre-alignments/",
        {"parameter_set": promoted.pk, "documents": [document.pk]},
        format="json",
    )
    assert started.status_code == 202, started.json()
    aligned = wait_for_job(started.json()["id"])

    assert aligned.status == "succeeded", aligned.error
    stored = PreAlignment.objects.get(document=document, parameter_set=promoted)
    assert stored.params["aligner"] == "hmm"
    assert len(stored.labels) == document.turn_count == 7
    excluded = {"Abstract", "2 Related Work", "Acknowledgments"}
    candidates = [s.position for s in segments if s.section not in excluded]
    assert set(stored.labels) - {-1} <= set(candidates)
    assert stored.labels != [-1] * 7

    (line,) = records(client.get(f"/api/v1/projects/{project['id']}/exports/summaries.jsonl"))
    assert line["scores_from"] == "automatic"
    assert [(unit["section"], unit["excluded"]) for unit in line["units"]] == [
        (segment.section, segment.section in excluded) for segment in segments
    ]
    assert all(unit["score"] == 0 for unit in line["units"] if unit["excluded"])
    assert sum(unit["score"] for unit in line["units"]) > 0


@pytest.mark.django_db
def test_the_hmm_sees_only_sections_outside_the_exclusion_list_and_labels_map_back():
    """The same HMM on the paper without its excluded sections gives the labels, shifted
    back to the full paper's positions."""
    _client, project = create_talk_project(excluded_sections=["Abstract", "Introduction"])
    document = Document.objects.create(project_id=project["id"], name="swifts")
    paper = read_paper(markdown_paper(), "paper.md", "en")
    report, sections = paper_report(paper, "sentences")
    transcript = read_transcript(talk_srt(), "talk.srt", "en")
    document_store_parsed(
        document=document, report=report, transcript=transcript, sections=sections
    )
    params = AlignmentParams.of("hmm", scoring=ScoringParams(method="rouge"))

    result, _ = align_document(document, params, None, learned=None)

    kept = [i for i, title in enumerate(sections) if title not in ("Abstract", "1 Introduction")]
    alone = replace(
        document_meeting(document),
        report=replace(
            report,
            segments=tuple(replace(report.segments[i], index=n) for n, i in enumerate(kept)),
        ),
    )
    expected = align_meeting(alone, params)
    assert result.labels.tolist() == [
        kept[label] if label >= 0 else -1 for label in expected.labels
    ]
    assert result.confidence.tolist() == expected.confidence.tolist()
    assert not {0, 1, 2, 3, 4} & set(result.labels.tolist())


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_paper_in_sections_gives_a_segment_per_section(celery_worker_process):
    client, project = create_talk_project(report_unit="sections")
    response = upload(client, project["id"], ("paper.md", markdown_paper()))

    job = wait_for(client, response["Location"])

    assert job["status"] == "succeeded", job
    document = Document.objects.get(pk=job["result"]["document"])
    segments = list(ReportSegment.objects.filter(document=document))
    assert [(s.key, s.section) for s in segments] == [
        (f"s{number}", title) for number, (title, _) in enumerate(SECTIONS, start=1)
    ]
    assert len(segments[2].sentences) == 2


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_paper_without_headings_fails_its_import_job_naming_the_file(celery_worker_process):
    client, project = create_talk_project()
    response = upload(client, project["id"], ("paper.md", b"Just one paragraph of prose."))
    assert response.status_code == 202, response.json()

    job = wait_for(client, response["Location"])

    assert job["status"] == "failed"
    assert job["error"].startswith("paper.md")
    assert "heading" in job["error"]
    document = Document.objects.get(pk=job["result"]["document"]) if job["result"] else None
    assert document is None or document.status == Document.Status.IMPORT_FAILED
    assert not ReportSegment.objects.exists()


@pytest.mark.django_db
def test_a_talk_projects_hugging_face_export_has_a_summaries_configuration(tmp_path):
    import io
    import os
    import zipfile

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import datasets

    client, project = create_talk_project()
    document = Document.objects.create(project_id=project["id"], name="swifts")
    report, sections = paper_report(read_paper(markdown_paper(), "paper.md", "en"), "sentences")
    transcript = read_transcript(talk_srt(), "talk.srt", "en")
    document_store_parsed(
        document=document, report=report, transcript=transcript, sections=sections
    )
    pre_alignment_record(document=document, parameter_set=None, labels=[2, 3, 7, 8, 9, 10, 11])
    url = f"/api/v1/projects/{project['id']}/exports/"
    (summary,) = records(client.get(f"{url}summaries.jsonl"))

    pairs = {**NO_LENGTH_FILTER, "include_automatic": "true"}
    archive = b"".join(client.get(f"{url}huggingface.zip", pairs).streaming_content)
    zipfile.ZipFile(io.BytesIO(archive)).extractall(tmp_path / "dataset")
    loaded = datasets.load_dataset(
        str(tmp_path / "dataset"), "summaries", cache_dir=str(tmp_path / "cache")
    )

    (split,) = loaded
    (row,) = loaded[split].to_list()
    assert row["split"] == split
    assert row["document_id"] == summary["document_id"]
    assert [unit["score"] for unit in row["units"]] == [u["score"] for u in summary["units"]]
    assert row["summaries"]["150_words"] == summary["summaries"]["150_words"]
    assert "## Summaries" in (tmp_path / "dataset" / "README.md").read_text()


@pytest.mark.django_db
def test_a_turn_put_in_an_excluded_section_is_scored_but_never_ranked_or_summarised():
    client, project = create_talk_project()
    document = Document.objects.create(project_id=project["id"], name="swifts")
    paper = read_paper(markdown_paper(), "paper.md", "en")
    report, sections = paper_report(paper, "sentences")
    transcript = read_transcript(talk_srt(), "talk.srt", "en")
    document_store_parsed(
        document=document, report=report, transcript=transcript, sections=sections
    )
    acknowledgments = sections.index("Acknowledgments")
    method = sections.index("3 Method")
    labels = [acknowledgments] + [method] * (len(transcript.turns) - 1)
    pre_alignment_record(
        document=document,
        parameter_set=Project.objects.get(pk=project["id"]).promoted_parameter_set,
        labels=labels,
        confidences=[1.0] * len(labels),
        engine_version="test",
    )

    (line,) = records(client.get(f"/api/v1/projects/{project['id']}/exports/summaries.jsonl"))

    thanks = line["units"][acknowledgments]
    assert thanks["excluded"]
    assert thanks["score"] == transcript.turns[0].word_count > 0
    assert thanks["rank"] is None
    assert acknowledgments not in line["ranking"]
    assert line["ranking"] == [method]
    for summary in line["summaries"].values():
        assert acknowledgments not in summary["positions"]
