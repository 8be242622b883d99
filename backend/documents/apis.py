from collections.abc import Iterator, Sequence
from typing import IO

from django.conf import settings
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import Permission, SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.parsers import JSONParser
from backend.core.ranges import Unsatisfiable, requested_range
from backend.core.serializers import IdField
from backend.documents.models import Document, OriginalFile
from backend.documents.selectors import audio_path, document_audio, document_get, document_list
from backend.documents.serializers import ReadingPositionSerializer
from backend.documents.services import (
    UNCHANGED,
    document_audio_delete,
    document_audio_replace,
    document_delete,
    document_update,
    document_upload,
)
from backend.documents.settings_effects import settings_change_preview
from backend.documents.uploads import (
    MULTIPART_OVERHEAD_BYTES,
    audio_format,
    check_audio,
    check_total_size,
    check_upload,
)
from backend.jobs.apis import JobOutputSerializer
from backend.projects.apis import ProjectSettingsSerializer
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN, sees_only_assigned
from backend.projects.podcasts import MAX_WINDOW_SECONDS, MIN_WINDOW_SECONDS, TRANSCRIPT_UNITS
from backend.projects.selectors import project_get, report_kind

AUDIO_CHUNK_BYTES = 64 * 1024


class CallersAnnotationSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)


class AudioOutputSerializer(serializers.Serializer):
    url = serializers.SerializerMethodField(help_text="Where the editor streams it from.")
    name = serializers.CharField(source="original_name", help_text="The file's name as sent.")
    size = serializers.IntegerField(help_text="In bytes.")
    content_type = serializers.SerializerMethodField()

    def get_url(self, recording: OriginalFile) -> str:
        return audio_path(
            project_id=recording.document.project_id, document_id=recording.document_id
        )

    def get_content_type(self, recording: OriginalFile) -> str:
        return audio_content_type(recording)


def audio_content_type(recording: OriginalFile) -> str:
    kind = audio_format(recording.original_name)
    return kind.content_type if kind else "application/octet-stream"


class DocumentOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # DRF's Field.source, shadowed
    status = serializers.ChoiceField(choices=Document.Status.choices)
    iteration = serializers.IntegerField(source="iteration_id", allow_null=True)
    assignees = serializers.SerializerMethodField()
    segment_count = serializers.IntegerField()
    turn_count = serializers.IntegerField()
    word_count = serializers.IntegerField()
    import_error = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    my_annotation = serializers.SerializerMethodField(
        help_text="The caller's own annotation (version, submitted_at), or null before they "
        "saved one: the document's `status` is everyone's, this is theirs."
    )
    my_position = serializers.SerializerMethodField(
        help_text="Where the caller last was in the document's editor, on any browser or "
        "device, or null before they opened it."
    )
    audio = serializers.SerializerMethodField(help_text="The recording, or null.")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_assignees(self, document: Document) -> list[int]:
        return [user.pk for user in document.assignees.all()]

    @extend_schema_field(CallersAnnotationSerializer(allow_null=True))
    def get_my_annotation(self, document: Document) -> dict | None:
        version = getattr(document, "my_annotation_version", None)
        if version is None:
            return None
        submitted_at = getattr(document, "my_annotation_submitted_at", None)
        return CallersAnnotationSerializer({"version": version, "submitted_at": submitted_at}).data

    @extend_schema_field(ReadingPositionSerializer(allow_null=True))
    def get_my_position(self, document: Document) -> dict | None:
        turn = getattr(document, "my_position_turn", None)
        if turn is None:
            return None
        updated_at = getattr(document, "my_position_updated_at", None)
        return ReadingPositionSerializer({"turn": turn, "updated_at": updated_at}).data

    @extend_schema_field(AudioOutputSerializer(allow_null=True))
    def get_audio(self, document: Document) -> dict | None:
        recordings = getattr(document, "recordings", None)
        if recordings is None:
            recordings = list(document.files.filter(role=OriginalFile.Role.AUDIO))
        return AudioOutputSerializer(recordings[0]).data if recordings else None


class DocumentListApi(PaginatedApi):
    permission_classes = MEMBER_OR_ADMIN
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    class UnitsSerializer(serializers.Serializer):
        """The upload's form fields that choose the document's transcript units, instead of
        the project's settings; the files are checked by check_upload."""

        transcript_unit = serializers.ChoiceField(
            choices=TRANSCRIPT_UNITS,
            required=False,
            help_text="This document's transcript units: the reader's turns, or fixed time "
            "windows (a window length alone asks for windows).",
        )
        window_seconds = serializers.FloatField(
            min_value=MIN_WINDOW_SECONDS,
            max_value=MAX_WINDOW_SECONDS,
            required=False,
            help_text="This document's window length in seconds.",
        )

    class UploadInputSerializer(UnitsSerializer):
        name = serializers.CharField(max_length=300, required=False, allow_blank=True)
        report = serializers.FileField(
            help_text="The report: .docx, .txt or .md; a talk project's paper: .pdf, .xml, "
            ".tei, .md or .txt; a podcast project's description: .txt or .md."
        )
        transcript = serializers.ListField(
            child=serializers.FileField(),
            help_text="The transcript: .srt, .vtt, .json, or one or more .ctm parts.",
        )
        audio = serializers.FileField(
            required=False,
            help_text="The recording, optional: .wav, .mp3, .ogg/.opus, .m4a/.aac or .flac, at "
            "most TANDEM_MAX_AUDIO_MB.",
        )

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, description="Comma-separated statuses."),
            OpenApiParameter("iteration", str, description="Iteration id, or `none`."),
            OpenApiParameter("assignee", str, description="User id, or `me`."),
            OpenApiParameter("search", str, description="In the name and in the texts."),
        ],
        responses=DocumentOutputSerializer(many=True),
    )
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        query = request.query_params
        documents = document_list(
            project_id=project_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
            statuses=[value for value in query.get("status", "").split(",") if value],
            iteration=query.get("iteration"),
            assignee=query.get("assignee"),
            search=query.get("search", "").strip(),
        )
        return paginated_response(
            queryset=documents,
            serializer_class=DocumentOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        request={"multipart/form-data": UploadInputSerializer},
        responses={202: JobOutputSerializer},
        description="Stores the files and starts an import job; follow it at the job's URL.",
    )
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        content_length = int(request.META.get("CONTENT_LENGTH") or 0)
        check_total_size(
            max(0, content_length - MULTIPART_OVERHEAD_BYTES),
            limit=settings.TANDEM_MAX_UPLOAD_BYTES + settings.TANDEM_MAX_AUDIO_BYTES,
        )
        project = project_get(project_id=project_id)
        upload = check_upload(
            request.FILES.get("report"),
            request.FILES.getlist("transcript"),
            report_kind=report_kind(project),
        )
        units = self.UnitsSerializer(data=request.POST.dict())
        units.is_valid(raise_exception=True)
        audio = request.FILES.get("audio")
        job = document_upload(
            actor=request.user,
            project=project,
            name=str(request.POST.get("name", "")).strip()[:300],
            upload=upload,
            audio=check_audio(audio) if audio is not None else None,
            units=units.validated_data,
        )
        response = Response(JobOutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)
        response["Location"] = f"/api/v1/projects/{project_id}/jobs/{job.pk}/"
        return response


class DocumentDetailApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class UpdateInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=300, required=False)
        iteration = IdField(
            allow_null=True,
            required=False,
            help_text="Only null: takes the document out of its open iteration. Documents join "
            "one through POST .../iterations/{id}/documents/, which pre-aligns them.",
        )
        assignees = serializers.ListField(child=IdField(), required=False, max_length=1000)

        def validate_iteration(self, value: int | None) -> None:
            if value is not None:
                raise serializers.ValidationError(
                    "Only null (take the document out of its iteration) can be set here; add "
                    "documents to an open iteration with POST "
                    ".../iterations/{id}/documents/, which pre-aligns them."
                )
            return value

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method in ("PATCH", "DELETE"):
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    def _document(self, request: SignedInRequest, project_id: int, document_id: int) -> Document:
        return document_get(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )

    @extend_schema(responses=DocumentOutputSerializer)
    def get(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        document = self._document(request, project_id, document_id)
        return Response(DocumentOutputSerializer(document).data)

    @extend_schema(request=UpdateInputSerializer, responses=DocumentOutputSerializer)
    def patch(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.UpdateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        document = document_update(
            actor=request.user,
            document=self._document(request, project_id, document_id),
            name=data.get("name"),
            iteration_id=data.get("iteration", UNCHANGED),
            assignee_ids=data.get("assignees"),
        )
        return Response(DocumentOutputSerializer(document).data)

    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        document_delete(
            actor=request.user, document=self._document(request, project_id, document_id)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class DocumentAudioApi(APIView):
    """A document's recording: whoever may read the document may hear it; leads add, replace
    and remove it."""

    permission_classes = MEMBER_OR_ADMIN
    parser_classes = [MultiPartParser]

    class InputSerializer(serializers.Serializer):
        audio = serializers.FileField(
            help_text=".wav, .mp3, .ogg/.opus, .m4a/.aac or .flac, at most TANDEM_MAX_AUDIO_MB."
        )

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method in ("PUT", "DELETE"):
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        """The body is audio whatever the media element accepts; errors are JSON."""
        return super().perform_content_negotiation(request, force=True)

    def _document(self, request: SignedInRequest, project_id: int, document_id: int) -> Document:
        return document_get(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "Range",
                str,
                OpenApiParameter.HEADER,
                description="One range, `bytes=a-b`, `bytes=a-` or `bytes=-n`: answered 206.",
            )
        ],
        responses={
            (200, "audio/*"): OpenApiResponse(OpenApiTypes.BINARY, description="The file."),
            (206, "audio/*"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The range asked for, with its Content-Range."
            ),
        },
        description="Streams the recording, with HTTP range requests (`Accept-Ranges: bytes`); "
        "a range outside the file answers 416 with `Content-Range: bytes */size`.",
    )
    def get(self, request: SignedInRequest, project_id: int, document_id: int) -> HttpResponseBase:
        recording = document_audio(document=self._document(request, project_id, document_id))
        return _audio_response(request, recording)

    def head(self, request: SignedInRequest, project_id: int, document_id: int) -> HttpResponseBase:
        recording = document_audio(document=self._document(request, project_id, document_id))
        return _audio_response(request, recording, body=False)

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        responses=AudioOutputSerializer,
        description="Adds or replaces the recording; a refused file leaves the old one.",
    )
    def put(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        content_length = int(request.META.get("CONTENT_LENGTH") or 0)
        check_total_size(
            max(0, content_length - MULTIPART_OVERHEAD_BYTES),
            limit=settings.TANDEM_MAX_AUDIO_BYTES,
        )
        document = self._document(request, project_id, document_id)
        recording = document_audio_replace(
            actor=request.user, document=document, audio=check_audio(request.FILES.get("audio"))
        )
        return Response(AudioOutputSerializer(recording).data)

    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        document_audio_delete(
            actor=request.user, document=self._document(request, project_id, document_id)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


def _audio_response(
    request: SignedInRequest, recording: OriginalFile, body: bool = True
) -> HttpResponseBase:
    """The whole file (200) or the one range asked for (206), streamed from storage."""
    size = recording.size
    etag = f'"{recording.sha256[:32]}"'
    header = request.META.get("HTTP_RANGE")
    if request.META.get("HTTP_IF_RANGE", etag) != etag:
        header = None  # the file changed since the client's first part: it gets all of it
    try:
        byte_range = requested_range(header, size)
    except Unsatisfiable:
        refused = Response(
            {"detail": f"The range {header!r} lies outside the recording's {size} bytes."},
            status=status.HTTP_416_REQUESTED_RANGE_NOT_SATISFIABLE,
        )
        refused["Content-Range"] = f"bytes */{size}"
        return refused
    response: HttpResponseBase
    if not body:
        response = HttpResponse(status=200 if byte_range is None else 206)
    elif byte_range is None:
        response = FileResponse(recording.file.open("rb"))
    else:
        handle = recording.file.open("rb")
        handle.seek(byte_range.first)
        response = StreamingHttpResponse(
            _read(handle, byte_range.length), status=status.HTTP_206_PARTIAL_CONTENT
        )
    if byte_range is not None:
        response["Content-Range"] = f"bytes {byte_range.first}-{byte_range.last}/{size}"
    response["Content-Length"] = str(size if byte_range is None else byte_range.length)
    response["Content-Type"] = audio_content_type(recording)
    response["Accept-Ranges"] = "bytes"
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _read(handle: IO[bytes], length: int) -> Iterator[bytes]:
    try:
        while length > 0:
            chunk = handle.read(min(AUDIO_CHUNK_BYTES, length))
            if not chunk:
                return
            length -= len(chunk)
            yield chunk
    finally:
        handle.close()


class SettingsPreviewInputSerializer(serializers.Serializer):
    settings = ProjectSettingsSerializer(help_text="The whole settings as they would be saved.")


class SettingEffectSerializer(serializers.Serializer):
    setting = serializers.ChoiceField(
        choices=["report_unit", "excluded_sections", "transcript_unit", "salience"],
        help_text="transcript_unit stands for the windows (unit and length), salience for the "
        "threshold and the cleaning.",
    )
    documents = serializers.IntegerField(help_text="Imported documents it concerns.")
    action = serializers.ChoiceField(
        choices=["reimport", "pre_align", "none"],
        help_text="What applies the change to those documents.",
    )
    summary = serializers.CharField()


class SettingsPreviewSerializer(serializers.Serializer):
    imported_documents = serializers.IntegerField()
    effects = SettingEffectSerializer(many=True)


class SettingsPreviewApi(APIView):
    """What saving these settings would do to the documents already imported: which must be
    imported or pre-aligned again for the change to reach them. Writes nothing; the settings
    are checked as a PATCH of the project checks them."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=SettingsPreviewInputSerializer, responses=SettingsPreviewSerializer)
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = SettingsPreviewInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        preview = settings_change_preview(
            project=project_get(project_id=project_id),
            settings=serializer.validated_data["settings"],
        )
        return Response(SettingsPreviewSerializer(preview).data)
