"""Listening in the editor (#16): a document with a timed transcript (Whisper JSON with word
times, read by the real reader) and a recording made on the spot (a 20 s WAV). The annotator
selects the third turn and presses P: playback starts at that turn's time, the turn (and the
word being said) is highlighted, and clicking another turn while playing seeks to it. A lead
adds, refuses and removes recordings from the documents table."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backend.documents.models import Document, OriginalFile
from backend.documents.services import document_audio_replace, document_store_parsed
from backend.documents.uploads import check_audio
from tests.audio import sine_wav
from tests.browser.conftest import open_editor, sign_in, turn
from tests.browser.test_lead_upload import drop
from workers.align.document_model import Report, Segment
from workers.align.readers import read_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN_SECONDS = 4.0
SPOKEN_SECONDS = 3.0
TURNS = 5
PLAY_TIMEOUT_MS = 15_000


def turn_start(index: int) -> float:
    return index * TURN_SECONDS


def whisper_json() -> bytes:
    """Five segments, one every 4 s, each three words said over 3 s."""
    segments = []
    for index in range(TURNS):
        start = turn_start(index)
        words = [
            {
                "word": f" {word}{index}",
                "start": start + n,
                "end": start + n + 0.8,
                "probability": 0.9,
            }
            for n, word in enumerate(("alpha", "bravo", "charlie"))
        ]
        segments.append(
            {
                "start": start,
                "end": start + SPOKEN_SECONDS,
                "text": "".join(word["word"] for word in words),
                "words": words,
            }
        )
    return json.dumps({"segments": segments}).encode()


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def podcast(team, media) -> Document:
    document = Document.objects.create(project=team.project, name="episode", source="upload")
    report = Report(
        segments=tuple(
            Segment(f"s{i}", f"Summary part {i}.", (f"Summary part {i}.",), None, i)
            for i in range(2)
        ),
        source="description.txt",
    )
    transcript = read_transcript([whisper_json()], ["episode.json"], "en")
    document_store_parsed(document=document, report=report, transcript=transcript)
    document.assignees.set([team.annotator])
    recording = SimpleUploadedFile("episode.wav", sine_wav(20.0), content_type="audio/wav")
    document_audio_replace(actor=team.lead, document=document, audio=check_audio(recording))
    return document


def current_time(page) -> float:
    return page.evaluate("() => document.querySelector('[data-testid=recording]').currentTime")


def wait_until_playing(page, past: float = 0.0) -> float:
    """The playhead once the element plays past `past` seconds (0: as soon as it plays, so a
    start from the recording's beginning shows as such instead of being waited through)."""
    page.wait_for_function(
        "(past) => { const audio = document.querySelector('[data-testid=recording]');"
        " return !audio.paused && audio.currentTime > past; }",
        arg=past,
        timeout=PLAY_TIMEOUT_MS,
    )
    return current_time(page)


def test_the_selected_turn_plays_from_its_start_and_a_click_seeks(page, live_server, podcast):
    from playwright.sync_api import expect

    sign_in(page, live_server)
    open_editor(page, live_server, podcast)
    play = page.get_by_role("button", name="▶ Play")
    expect(play).to_be_enabled()

    turn(page, 2).click()
    page.keyboard.press("p")

    at = wait_until_playing(page)
    assert turn_start(2) <= at < turn_start(2) + SPOKEN_SECONDS + 1
    expect(turn(page, 2)).to_have_class(re.compile(r"\bplaying\b"))
    expect(turn(page, 2).locator(".playing-word")).to_have_text(
        re.compile(r"^(alpha|bravo|charlie)2$")
    )
    expect(page.get_by_role("button", name="■ Stop")).to_be_visible()

    turn(page, 4).click()

    # Without the seek, playback would stop at turn 3's end (11 s), never reaching 16 s.
    at = wait_until_playing(page, past=turn_start(3))
    assert turn_start(4) <= at < turn_start(4) + SPOKEN_SECONDS + 1
    expect(turn(page, 4)).to_have_class(re.compile(r"\bplaying\b"))
    expect(turn(page, 2)).not_to_have_class(re.compile(r"\bplaying\b"))

    page.keyboard.press("p")
    page.wait_for_function("() => document.querySelector('[data-testid=recording]').paused")
    expect(play).to_be_visible()


def test_playback_stops_at_the_end_of_the_selected_turn(page, live_server, podcast):
    from playwright.sync_api import expect

    sign_in(page, live_server)
    open_editor(page, live_server, podcast)
    turn(page, 1).click()
    page.get_by_role("button", name="▶ Play").click()
    assert wait_until_playing(page) >= turn_start(1)

    page.wait_for_function(
        "() => document.querySelector('[data-testid=recording]').paused", timeout=PLAY_TIMEOUT_MS
    )

    assert turn_start(1) + SPOKEN_SECONDS <= current_time(page) < turn_start(2)
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible()
    expect(turn(page, 1)).not_to_have_class(re.compile(r"\bplaying\b"))


def test_a_lead_adds_refuses_and_removes_a_recording(page, live_server, team, podcast, tmp_path):
    from playwright.sync_api import expect

    OriginalFile.objects.filter(role=OriginalFile.Role.AUDIO).delete()
    not_audio = tmp_path / "notes.mp3"
    not_audio.write_text("These are notes, not a recording.\n" * 10)
    wav = tmp_path / "episode-take-2.wav"
    wav.write_bytes(sine_wav(1.0))

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/documents")
    row = page.get_by_test_id("lead-document-row").filter(has_text="episode")
    expect(row.get_by_test_id("recording")).to_contain_text("none")

    page.get_by_label("Add the recording of episode").set_input_files(str(not_audio))
    expect(page.get_by_role("alert")).to_contain_text(
        "episode: Not a recording Tandem plays: notes.mp3: this is not MP3 audio"
    )

    page.get_by_label("Add the recording of episode").set_input_files(str(wav))
    expect(row.get_by_test_id("recording")).to_contain_text("episode-take-2.wav")
    assert (
        OriginalFile.objects.get(role=OriginalFile.Role.AUDIO).original_name == "episode-take-2.wav"
    )

    page.get_by_role("button", name="Remove the recording of episode").click()
    expect(row.get_by_test_id("recording")).to_contain_text("none")
    assert not OriginalFile.objects.filter(role=OriginalFile.Role.AUDIO).exists()


def test_a_recording_dropped_with_its_pair_is_uploaded_with_it(page, live_server, team, media):
    from playwright.sync_api import expect

    sign_in(page, live_server, "lead")
    page.goto(f"{live_server.url}/lead/projects/{team.project.pk}/documents")
    drop(
        page,
        {
            "episode.md": b"Host. We talk about swifts.\n",
            "episode.json": whisper_json(),
            "episode.wav": sine_wav(1.0),
        },
    )
    pair = page.get_by_test_id("planned-upload")
    expect(pair).to_contain_text("audio: episode.wav")
    page.get_by_role("button", name="Upload 1 pair").click()

    # Accepted: its import job is followed (no worker runs here; the files are stored already).
    upload = page.get_by_role("list", name="Uploads").get_by_test_id("upload")
    expect(upload.get_by_test_id("job")).to_be_visible()
    document = Document.objects.get(project=team.project, name="episode")
    assert document.files.get(role=OriginalFile.Role.AUDIO).original_name == "episode.wav"
