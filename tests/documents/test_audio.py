"""A document's recording: who may hear it, add, replace and remove it; how it is streamed
(HTTP ranges); and what is refused (wrong type 415, too big 413, empty 400), old audio kept."""

from functools import partial

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from backend.accounts.services import api_token_create
from backend.audit.models import AuditEvent
from backend.documents.models import OriginalFile
from backend.documents.services import document_store_parsed
from backend.documents.uploads import AUDIO_EXTENSIONS
from tests.audio import HEADERS, named, sine_wav
from workers.align.document_model import Report, Segment, Transcript, Turn, Word
from workers.align.readers import RECORDING_EXTENSIONS

WAV = sine_wav(1.0)
REPORT_ROWS = Report(segments=(Segment("s0", "a report", ("a report",), "A", 0),), source="r.txt")


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs a request's on-commit work (removing a replaced or deleted file) as its commit
    would: the test's own transaction never commits."""
    return partial(django_capture_on_commit_callbacks, execute=True)


def audio_url(world, document=None) -> str:
    document = document or world.document
    return f"/api/v1/projects/{document.project_id}/documents/{document.pk}/audio/"


def put_audio(world, data: bytes, name: str, who: str = "lead", document=None):
    return world.client(who).put(
        audio_url(world, document), {"audio": named(data, name)}, format="multipart"
    )


def recording(document) -> OriginalFile | None:
    return OriginalFile.objects.filter(document=document, role=OriginalFile.Role.AUDIO).first()


def stored_files(media) -> list[str]:
    return sorted(path.name for path in media.rglob("*") if path.is_file())


def test_a_lead_adds_a_recording_and_the_document_says_so(world, media):
    response = put_audio(world, WAV, "meeting.wav")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["url"] == audio_url(world)
    assert (body["name"], body["size"], body["content_type"]) == (
        "meeting.wav",
        len(WAV),
        "audio/wav",
    )
    assert recording(world.document).size == len(WAV)
    assert stored_files(media) == ["meeting.wav"]
    detail = world.client("lead").get(
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/"
    )
    assert detail.json()["audio"] == body
    listed = world.client("lead").get(f"/api/v1/projects/{world.project.pk}/documents/")
    by_name = {item["name"]: item["audio"] for item in listed.json()["results"]}
    assert by_name == {"assigned": body, "unassigned": None}
    event = AuditEvent.objects.get(action="document.audio_add")
    assert event.details == {"name": "meeting.wav", "size": len(WAV)}


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("lead", 200),
        ("admin", 200),
        ("curator", 200),
        ("annotator", 200),
        ("second_annotator", 404),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_whoever_may_read_the_document_may_hear_it(world, media, who, status):
    put_audio(world, WAV, "meeting.wav")

    response = world.client(who).get(audio_url(world))

    assert response.status_code == status
    if status == 200:
        assert response["Content-Type"] == "audio/wav"
        assert response["Accept-Ranges"] == "bytes"
        assert int(response["Content-Length"]) == len(WAV)
        assert b"".join(response.streaming_content) == WAV


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("lead", 200),
        ("admin", 200),
        ("curator", 403),
        ("annotator", 403),
        ("second_annotator", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_only_leads_add_or_replace_a_recording(world, media, who, status):
    response = put_audio(world, WAV, "meeting.wav", who=who)

    assert response.status_code == status
    assert (recording(world.document) is not None) == (status == 200)


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("lead", 204),
        ("admin", 204),
        ("curator", 403),
        ("annotator", 403),
        ("second_annotator", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_only_leads_remove_a_recording(world, media, committed, who, status):
    put_audio(world, WAV, "meeting.wav")

    with committed():
        response = world.client(who).delete(audio_url(world))

    assert response.status_code == status
    assert (recording(world.document) is None) == (status == 204)
    assert (stored_files(media) == []) == (status == 204)
    if status == 204:
        assert AuditEvent.objects.filter(action="document.audio_delete").count() == 1


def test_a_document_without_a_recording_answers_404_saying_so(world, media):
    response = world.client("annotator").get(audio_url(world))

    assert response.status_code == 404
    assert "has no recording" in response.json()["detail"]
    assert world.client("lead").delete(audio_url(world)).status_code == 404


def test_another_projects_document_is_not_found(world, media):
    put_audio(world, WAV, "meeting.wav")
    url = f"/api/v1/projects/{world.project.pk}/documents/{world.other_document.pk}/audio/"

    assert world.client("lead").get(url).status_code == 404


HUGE = "9" * 5000
"""A range bound over the 4,300 digits Python's `int` reads from text."""


@pytest.mark.parametrize(
    ("header", "first", "last"),
    [
        ("bytes=0-99", 0, 99),
        ("bytes=100-", 100, len(WAV) - 1),
        ("bytes=-50", len(WAV) - 50, len(WAV) - 1),
        ("bytes=10-999999999", 10, len(WAV) - 1),
        (f"bytes=-{len(WAV) + 10}", 0, len(WAV) - 1),
        (f"bytes=0-{HUGE}", 0, len(WAV) - 1),
        (f"bytes=-{HUGE}", 0, len(WAV) - 1),
        (f"bytes={'0' * 5000}5-{'0' * 5000}9", 5, 9),
    ],
)
def test_a_range_answers_206_with_those_bytes(world, media, header, first, last):
    put_audio(world, WAV, "meeting.wav")

    response = world.client("annotator").get(audio_url(world), HTTP_RANGE=header)

    assert response.status_code == 206
    assert response["Content-Range"] == f"bytes {first}-{last}/{len(WAV)}"
    assert int(response["Content-Length"]) == last - first + 1
    assert b"".join(response.streaming_content) == WAV[first : last + 1]


@pytest.mark.parametrize(
    "header",
    [f"bytes={len(WAV)}-", f"bytes={len(WAV) + 5}-{len(WAV) + 9}", "bytes=-0", f"bytes={HUGE}-"],
)
def test_a_range_outside_the_file_answers_416(world, media, header):
    put_audio(world, WAV, "meeting.wav")

    response = world.client("annotator").get(audio_url(world), HTTP_RANGE=header)

    assert response.status_code == 416
    assert response["Content-Range"] == f"bytes */{len(WAV)}"
    assert "outside the recording" in response.json()["detail"]


@pytest.mark.parametrize(
    "header", ["bytes=", "bytes=abc", "items=0-10", "bytes=0-1,5-9", "bytes=9-3"]
)
def test_a_range_that_cannot_be_read_gets_the_whole_file(world, media, header):
    put_audio(world, WAV, "meeting.wav")

    response = world.client("annotator").get(audio_url(world), HTTP_RANGE=header)

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == WAV


def test_a_range_for_a_replaced_recording_gets_the_whole_new_one(world, media):
    """If-Range: a player that started on the old file must not splice in the new one's bytes."""
    put_audio(world, WAV, "first.wav")
    client = world.client("annotator")
    first_etag = client.head(audio_url(world))["ETag"]
    second = sine_wav(0.5, frequency=220)
    put_audio(world, second, "second.wav")

    stale = client.get(audio_url(world), HTTP_RANGE="bytes=100-", HTTP_IF_RANGE=first_etag)
    fresh_etag = client.head(audio_url(world))["ETag"]
    current = client.get(audio_url(world), HTTP_RANGE="bytes=100-", HTTP_IF_RANGE=fresh_etag)

    assert fresh_etag != first_etag
    assert (stale.status_code, b"".join(stale.streaming_content)) == (200, second)
    assert (current.status_code, b"".join(current.streaming_content)) == (206, second[100:])


def test_head_answers_the_headers_without_the_body(world, media):
    put_audio(world, WAV, "meeting.wav")
    client = world.client("annotator")

    whole = client.head(audio_url(world))
    part = client.head(audio_url(world), HTTP_RANGE="bytes=0-9")

    assert (whole.status_code, whole["Content-Length"], whole.content) == (200, str(len(WAV)), b"")
    assert whole["Accept-Ranges"] == "bytes"
    assert (part.status_code, part["Content-Range"], part["Content-Length"]) == (
        206,
        f"bytes 0-9/{len(WAV)}",
        "10",
    )


def test_a_token_hears_it_too(world, media):
    put_audio(world, WAV, "meeting.wav")
    _, key = api_token_create(user=world.annotator, name="player")

    response = APIClient().get(audio_url(world), HTTP_AUTHORIZATION=f"Token {key}")

    assert response.status_code == 200


@pytest.mark.parametrize("name", sorted(HEADERS))
def test_each_format_is_accepted_by_its_first_bytes_and_served_as_itself(world, media, name):
    response = put_audio(world, HEADERS[name], name)

    assert response.status_code == 200, response.content
    served = world.client("lead").get(audio_url(world))
    assert served["Content-Type"] == response.json()["content_type"]
    assert served["Content-Type"].startswith("audio/")


@pytest.mark.parametrize(
    ("data", "name", "complaint"),
    [
        (b"This is a text file, not audio.\n" * 4, "episode.mp3", "not MP3 audio"),
        (WAV, "episode.flac", "not FLAC audio"),
        (HEADERS["episode.flac"], "episode.wav", "not WAV audio"),
        (WAV, "episode.txt", "unsupported audio format"),
        (WAV, "episode", "unsupported audio format"),
    ],
)
def test_a_file_that_is_not_the_audio_its_name_says_gets_415(world, media, data, name, complaint):
    response = put_audio(world, data, name)

    assert response.status_code == 415
    assert complaint in response.json()["detail"]
    assert recording(world.document) is None
    assert stored_files(media) == []


def test_an_empty_file_gets_400(world, media):
    response = put_audio(world, b"", "episode.wav")

    assert response.status_code == 400
    assert "empty" in response.json()["detail"]


def test_a_put_without_the_field_gets_400_naming_it(world, media):
    response = world.client("lead").put(audio_url(world), {}, format="multipart")

    assert response.status_code == 400
    assert "'audio'" in response.json()["detail"]


@override_settings(TANDEM_MAX_AUDIO_BYTES=1000)
def test_a_recording_over_the_limit_gets_413_naming_it(world, media):
    response = put_audio(world, WAV, "meeting.wav")

    assert response.status_code == 413
    assert "the limit is 1000 bytes" in response.json()["detail"]
    assert recording(world.document) is None


def test_a_replacement_swaps_the_file_and_a_refused_one_keeps_the_old(world, media, committed):
    put_audio(world, WAV, "first.wav")
    second = sine_wav(0.5, frequency=220)

    with committed():
        assert put_audio(world, second, "second.wav").status_code == 200
    assert stored_files(media) == ["second.wav"]
    assert AuditEvent.objects.filter(action="document.audio_replace").count() == 1

    refused = put_audio(world, b"not audio at all", "third.mp3")
    with override_settings(TANDEM_MAX_AUDIO_BYTES=100):
        too_big = put_audio(world, WAV, "fourth.wav")

    assert (refused.status_code, too_big.status_code) == (415, 413)
    assert recording(world.document).original_name == "second.wav"
    assert stored_files(media) == ["second.wav"]
    assert b"".join(world.client("lead").get(audio_url(world)).streaming_content) == second


def test_deleting_the_document_removes_its_recording(world, media, committed):
    put_audio(world, WAV, "meeting.wav")

    with committed():
        response = world.client("lead").delete(
            f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/"
        )

    assert response.status_code == 204
    assert stored_files(media) == []


REPORT = b"M. Dupont : Bonjour a tous.\n\nMme Durand : Merci.\n"
SRT = b"1\n00:00:01,000 --> 00:00:02,000\nbonjour a tous\n"


def upload_pair(world, audio):
    return world.client("lead").post(
        f"/api/v1/projects/{world.project.pk}/documents/",
        {"report": named(REPORT, "r.txt"), "transcript": [named(SRT, "t.srt")], "audio": audio},
        format="multipart",
    )


def test_a_pair_uploaded_with_its_recording_keeps_it(world, media):
    response = upload_pair(world, named(WAV, "meeting.wav"))

    assert response.status_code == 202, response.content
    document = world.project.documents.get(source="upload")
    assert recording(document).original_name == "meeting.wav"
    assert sorted(document.files.values_list("role", flat=True)) == [
        "audio",
        "report",
        "transcript",
    ]


def test_a_pair_with_a_wrong_recording_is_refused_whole(world, media):
    response = upload_pair(world, named(b"hello", "meeting.ogg"))

    assert response.status_code == 415
    assert "not Ogg audio" in response.json()["detail"]
    assert not world.project.documents.filter(source="upload").exists()
    assert stored_files(media) == []


def editor(world, who="annotator") -> dict:
    url = f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/editor/"
    return world.client(who).get(url).json()


def test_the_editor_payload_says_where_the_recording_is_and_when_each_word_is_said(world, media):
    timed = Transcript(
        turns=(
            Turn(
                "t0",
                "hello there",
                ("hello there",),
                "A",
                0.0,
                1.5,
                0,
                (Word("Hello", 0.0, 0.61234, 0.9), Word("there.", 0.7, 1.5, 0.8)),
            ),
            Turn("t1", "no words", ("no words",), "B", 2.0, 3.0, 1),
        ),
        source="t.json",
    )
    document_store_parsed(document=world.document, report=REPORT_ROWS, transcript=timed)
    assert (editor(world)["audio_url"], editor(world)["turn_words"]) == (None, [])

    put_audio(world, WAV, "meeting.wav")
    payload = editor(world)

    assert payload["audio_url"] == audio_url(world)
    assert payload["turn_words"] == [[["Hello", 0.0, 0.61], ["there.", 0.7, 1.5]], []]


def test_a_recording_without_word_times_sends_no_words(world, media):
    put_audio(world, WAV, "meeting.wav")
    payload = editor(world)

    assert payload["audio_url"] == audio_url(world)
    assert payload["turn_words"] == []


def test_adjudicating_listens_too(world, media):
    """The curator's adjudication view is the editor: it gets the recording as well."""
    adjudication = (
        f"/api/v1/projects/{world.project.pk}/documents/{world.document.pk}/adjudication/"
    )
    assert world.client("curator").get(adjudication).json()["audio_url"] is None

    put_audio(world, WAV, "meeting.wav")
    body = world.client("curator").get(adjudication).json()

    assert (body["audio_url"], body["turn_words"]) == (audio_url(world), [])


def test_the_upload_takes_the_recordings_that_pairing_by_name_knows():
    assert sorted(AUDIO_EXTENSIONS) == sorted(RECORDING_EXTENSIONS)
