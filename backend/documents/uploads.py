"""Checks an upload must pass before anything is written: the cheap ones, done while the
user waits, so that a wrong file gets a 4xx naming the problem instead of a failed job.

Full parsing stays in the import job; only size, extension, encoding and JSON syntax are
checked here. The encoding check reuses the engine's own decoder so that both agree.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from backend.core.errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType
from workers.align.document_model import ReaderError
from workers.align.readers import (
    DESCRIPTION_EXTENSIONS,
    PAPER_EXTENSIONS,
    PDF_MAGIC,
    REPORT_EXTENSIONS,
    TRANSCRIPT_EXTENSIONS,
    ArchiveLimits,
    InputFile,
    check_archive,
    decode_text,
    parse_json,
)

MAX_TRANSCRIPT_PARTS = 50
MULTIPART_OVERHEAD_BYTES = 1024 * 1024
"""Multipart framing around the files; anything beyond is refused before it is read."""
_ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class CheckedFile:
    name: str
    data: bytes

    @property
    def extension(self) -> str:
        return PurePath(self.name).suffix.lower()

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class CheckedUpload:
    report: CheckedFile
    transcripts: tuple[CheckedFile, ...]


REPORT_KINDS = {
    "report": REPORT_EXTENSIONS,
    "paper": PAPER_EXTENSIONS,
    "description": DESCRIPTION_EXTENSIONS,
}
"""What a project's report is (a meeting report, a talk's paper, a podcast's description)
and the files its readers take."""


def check_upload(
    report: UploadedFile | None, transcripts: list[UploadedFile], report_kind: str = "report"
) -> CheckedUpload:
    if report is None:
        raise InvalidInput(
            f"Send the {report_kind} as the multipart file field 'report'.", field="report"
        )
    if not transcripts:
        raise InvalidInput(
            "Send the transcript as the multipart file field 'transcript' "
            "(repeat it for the parts of a .ctm recording).",
            field="transcript",
        )
    if len(transcripts) > MAX_TRANSCRIPT_PARTS:
        raise InvalidInput(f"At most {MAX_TRANSCRIPT_PARTS} transcript files.", field="transcript")
    check_total_size((report.size or 0) + sum(part.size or 0 for part in transcripts))
    checked_report = _checked(report, "report", REPORT_KINDS[report_kind])
    checked_transcripts = tuple(
        _checked(part, "transcript", TRANSCRIPT_EXTENSIONS) for part in transcripts
    )
    extensions = {part.extension for part in checked_transcripts}
    if len(checked_transcripts) > 1 and extensions != {".ctm"}:
        raise InvalidInput(
            "Only .ctm transcripts may be split across several files.", field="transcript"
        )
    return CheckedUpload(report=checked_report, transcripts=checked_transcripts)


def archive_limits() -> ArchiveLimits:
    """The archive limits of the settings (TANDEM_ARCHIVE_*)."""
    return ArchiveLimits(
        max_members=settings.TANDEM_ARCHIVE_MAX_MEMBERS,
        max_uncompressed_bytes=settings.TANDEM_ARCHIVE_MAX_UNCOMPRESSED_BYTES,
        max_ratio=settings.TANDEM_ARCHIVE_MAX_RATIO,
    )


def check_total_size(size: int, limit: int | None = None) -> None:
    """413 above `limit` bytes, by default the upload limit (`TANDEM_MAX_UPLOAD_MB`)."""
    limit = settings.TANDEM_MAX_UPLOAD_BYTES if limit is None else limit
    if size > limit:
        raise PayloadTooLarge(
            f"The upload is {size} bytes; the limit is {limit} bytes "
            f"({limit // (1024 * 1024)} MB).",
            limit=limit,
        )


def _checked(upload: UploadedFile, field: str, extensions: tuple[str, ...]) -> CheckedFile:
    name = PurePath(upload.name or "").name
    file = CheckedFile(name=name, data=upload.read())
    if file.extension not in extensions:
        raise InvalidInput(
            f"{name or 'the file'}: unsupported {field} format; "
            f"expected one of {', '.join(extensions)}.",
            field=field,
        )
    if not file.data.strip():
        raise InvalidInput(f"{name}: the file is empty.", field=field)
    if file.extension == ".pdf":
        if not file.data.lstrip().startswith(PDF_MAGIC):
            raise InvalidInput(
                f"{name}: this is not a PDF file (a PDF starts with '%PDF-').", field=field
            )
        return file
    if file.extension == ".docx":
        if not file.data.startswith(_ZIP_MAGIC):
            raise InvalidInput(
                f"{name}: this is not a .docx file (a .docx is a zip archive).", field=field
            )
        try:
            check_archive(name, file.data, archive_limits())
        except ReaderError as error:
            raise InvalidInput(f"{name}: {error.problem}.", field=field) from error
        return file
    try:
        text = decode_text(InputFile(name, file.data))
    except ReaderError as error:
        raise InvalidInput(f"{name}: {error.location}: {error.problem}", field=field) from error
    if file.extension == ".json":
        try:
            parse_json(name, text)
        except ReaderError as error:
            raise InvalidInput(
                f"{name}: {error.location}: {error.problem}.", field=field
            ) from error
    return file


def _is_wav(head: bytes) -> bool:
    return head[:4] == b"RIFF" and head[8:12] == b"WAVE"


def _is_mp3(head: bytes) -> bool:
    """An ID3 tag, or straight into an MPEG audio frame (11 sync bits, layer not 0)."""
    return head[:3] == b"ID3" or (
        len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0 and head[1] & 0x06 != 0
    )


def _is_aac(head: bytes) -> bool:
    """An ADTS header: 12 sync bits, then layer 0."""
    return len(head) >= 2 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0


@dataclass(frozen=True)
class AudioFormat:
    """A recording format the browser plays: its extensions, media type and how its first
    bytes look (a file renamed to .mp3 must not reach the editor's audio element)."""

    name: str
    extensions: tuple[str, ...]
    content_type: str
    signature: str
    starts_like: Callable[[bytes], bool]


AUDIO_FORMATS = (
    AudioFormat("WAV", (".wav",), "audio/wav", "'RIFF....WAVE'", _is_wav),
    AudioFormat("MP3", (".mp3",), "audio/mpeg", "an ID3 tag or an MPEG frame", _is_mp3),
    AudioFormat(
        "Ogg", (".ogg", ".oga", ".opus"), "audio/ogg", "'OggS'", lambda head: head[:4] == b"OggS"
    ),
    AudioFormat(
        "M4A", (".m4a", ".mp4"), "audio/mp4", "'....ftyp'", lambda head: head[4:8] == b"ftyp"
    ),
    AudioFormat("AAC", (".aac",), "audio/aac", "an ADTS header", _is_aac),
    AudioFormat("FLAC", (".flac",), "audio/flac", "'fLaC'", lambda head: head[:4] == b"fLaC"),
)
AUDIO_EXTENSIONS = tuple(extension for kind in AUDIO_FORMATS for extension in kind.extensions)


def audio_format(name: str) -> AudioFormat | None:
    extension = PurePath(name).suffix.lower()
    return next((kind for kind in AUDIO_FORMATS if extension in kind.extensions), None)


@dataclass(frozen=True)
class CheckedAudio:
    """An audio upload that passed its checks; `upload` is still the request's file (on
    disk past a few MB), copied to storage by chunks."""

    name: str
    upload: UploadedFile
    size: int
    sha256: str


def check_audio(upload: UploadedFile | None) -> CheckedAudio:
    """The extension names a format the browser plays and the first bytes are that format's;
    415 naming the problem otherwise, 413 over `TANDEM_MAX_AUDIO_MB`, 400 when empty. The
    file is read once by chunks (for its hash), never whole."""
    if upload is None:
        raise InvalidInput("Send the recording as the multipart file field 'audio'.", field="audio")
    name = PurePath(upload.name or "").name
    size = upload.size or 0
    kind = audio_format(name)
    if kind is None:
        raise UnsupportedMediaType(
            f"{name or 'the file'}: unsupported audio format; "
            f"expected one of {', '.join(AUDIO_EXTENSIONS)}.",
            field="audio",
        )
    if size == 0:
        raise InvalidInput(f"{name}: the file is empty.", field="audio")
    limit = settings.TANDEM_MAX_AUDIO_BYTES
    if size > limit:
        raise PayloadTooLarge(
            f"{name}: the recording is {size} bytes; the limit is {limit} bytes "
            f"({limit // (1024 * 1024)} MB, TANDEM_MAX_AUDIO_MB).",
            limit=limit,
        )
    upload.seek(0)
    head = upload.read(16)
    if not kind.starts_like(head):
        raise UnsupportedMediaType(
            f"{name}: this is not {kind.name} audio, whatever its name says "
            f"({kind.name} starts with {kind.signature}).",
            field="audio",
        )
    digest = hashlib.sha256()
    upload.seek(0)
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return CheckedAudio(name=name, upload=upload, size=size, sha256=digest.hexdigest())
