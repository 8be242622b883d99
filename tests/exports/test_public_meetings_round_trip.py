"""The public_meetings layout both ways: a project exported and imported into a new project
gives the same documents and alignments; the package's own data imports as its corpus."""

import json

import public_meetings

from backend.alignments.selectors import current_pre_alignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.curation.selectors import document_gold
from backend.documents.models import Document
from tests.domain import make_document
from tests.exports.conftest import body, new_project, upload
from workers.align.corpus import load_public_meetings

SUB_TURN_MEETING = "b7872272"


def gold_labels(document: Document) -> list[int] | None:
    gold = document_gold(document_id=document.pk)
    return gold.labels if gold is not None else None


def snapshot(document: Document) -> dict:
    pre_alignment = current_pre_alignment(document=document)
    return {
        "name": document.name,
        "source": document.source,
        "status": document.status,
        "counts": (document.segment_count, document.turn_count, document.word_count),
        "segments": list(
            document.segments.values_list(
                "position", "key", "text", "sentences", "speaker", "word_count"
            )
        ),
        "turns": list(
            document.turns.values_list(
                "position", "key", "text", "sentences", "speaker", "start", "end", "word_count"
            )
        ),
        "pre_alignment": (
            (pre_alignment.labels, pre_alignment.confidences, pre_alignment.params)
            if pre_alignment
            else None
        ),
        "gold": gold_labels(document),
    }


def test_a_project_exported_and_imported_has_the_same_documents_and_alignments(corpus):
    engine = parameter_set_get_or_create(
        project=corpus.project, name="engine", params={"aligner": "dp"}, engine_version="t"
    )
    turns = corpus.pre_aligned.turn_count
    pre_alignment_record(
        document=corpus.pre_aligned,
        parameter_set=engine,
        labels=current_pre_alignment(document=corpus.pre_aligned).labels,
        confidences=[round(turn / turns, 3) for turn in range(turns)],
        engine_version="t",
    )
    make_document(corpus.project, name="never aligned")
    client = corpus.client()
    exported = body(client.get(f"{corpus.url}/exports/public-meetings.json"))
    target = new_project(corpus.lead)

    response = upload(client, target, exported)

    assert response.status_code == 201, response.content
    originals = Document.objects.filter(project=corpus.project).order_by("pk")
    copies = Document.objects.filter(project=target).order_by("pk")
    assert [snapshot(copy) for copy in copies] == [snapshot(original) for original in originals]
    assert [document["id"] for document in response.json()] == [copy.pk for copy in copies]
    again = body(client.get(f"/api/v1/projects/{target.pk}/exports/public-meetings.json"))
    assert again.replace(b"document-%d" % copies.last().pk, b"") == exported.replace(
        b"document-%d" % originals.last().pk, b""
    )


def test_the_packages_own_data_imports_as_its_corpus(corpus):
    meetings = load_public_meetings(["686239f0", SUB_TURN_MEETING])
    raw = public_meetings.load_meetings()
    target = new_project(corpus.lead)

    response = upload(
        corpus.client(), target, {meeting.id: raw[meeting.id] for meeting in meetings}
    )

    assert response.status_code == 201, response.content
    documents = Document.objects.filter(project=target).order_by("pk")
    for meeting, document in zip(meetings, documents, strict=True):
        turns = list(document.turns.values_list("key", "text"))
        assert turns == [(turn.id, turn.text) for turn in meeting.transcript.turns]
        assert list(document.segments.values_list("key", flat=True)) == [
            segment.id for segment in meeting.report.segments
        ]
        assert gold_labels(document) == list(meeting.reference)
        assert current_pre_alignment(document=document).labels == list(meeting.initial)
        assert document.source == f"public_meetings:{meeting.id}"
        assert document.status == Document.Status.SUBMITTED


def test_a_broken_file_is_refused_whole_naming_the_item(corpus):
    raw = public_meetings.load_meetings()
    first, second = sorted(raw)[:2]
    broken = json.loads(json.dumps({first: raw[first], second: raw[second]}))
    broken[second]["final"]["ctm"][7]["aligned"] = "0_999_0"
    target = new_project(corpus.lead)

    response = upload(corpus.client(), target, broken)

    assert response.status_code == 400
    assert response.json()["detail"] == (
        f"meetings['{second}'].final.ctm[7].aligned: '0_999_0' is not an id of this side's doc."
    )
    assert not Document.objects.filter(project=target).exists()


def test_a_file_that_is_not_json_is_refused(corpus):
    response = upload(corpus.client(), new_project(corpus.lead), b"\xff not json")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("The file is not UTF-8 JSON")


def test_a_missing_file_is_refused(corpus):
    response = corpus.client().post(
        f"{corpus.url}/documents/public-meetings/", {}, format="multipart"
    )

    assert response.status_code == 400
    assert "'file'" in response.json()["detail"]
