"""Export endpoints: every format streams, so a corpus is never held whole in memory and
the first bytes leave at once; the preview answers with counts only.

Filters are query parameters, validated before anything is read; an unknown parameter is
refused rather than ignored, since a misspelt filter would silently export another corpus.
"""

from collections.abc import Iterable
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.errors import InvalidInput
from backend.core.schema import ERROR_COMPONENT
from backend.core.serializers import CountField
from backend.documents.apis import DocumentOutputSerializer
from backend.documents.uploads import check_total_size
from backend.exports.formats.huggingface import huggingface_members, require_loadable
from backend.exports.formats.parallel import parallel_members
from backend.exports.formats.public_meetings import public_meetings_pieces
from backend.exports.formats.salience import salience_records
from backend.exports.formats.streams import chunked, stream_zip
from backend.exports.formats.summaries import summary_records
from backend.exports.selectors import export_preview, export_records
from backend.exports.serializers import ExportPreviewSerializer, PublicMeetingsExportSerializer
from backend.exports.services import export_record, public_meetings_import
from backend.projects.models import Project
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.podcasts import is_podcast
from backend.projects.selectors import project_get
from backend.projects.talks import is_talk
from backend.salience.selectors import salience_summary
from workers.align.document_model import ReaderError
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.shape import record_fields
from workers.align.pairs.writers import csv_pieces, jsonl_pieces
from workers.align.podcasts.salience import SalienceConfig
from workers.align.public_meetings_layout import LayoutError, ParsedMeeting, parse_public_meetings
from workers.align.readers import parse_json
from workers.align.talks.importance import SummaryLengths


class ExportQuerySerializer(serializers.Serializer):
    include_automatic = serializers.BooleanField(
        default=False, help_text="Add automatic pairs from documents without gold."
    )
    min_agreement = serializers.FloatField(
        default=0.0,
        min_value=0.0,
        max_value=100.0,
        help_text="Drop gold whose annotators agreed on fewer turns (percent); gold of one "
        "annotator passes.",
    )
    min_confidence = serializers.FloatField(
        default=0.0, min_value=0.0, max_value=1.0, help_text="Lowest automatic pair confidence."
    )
    min_words = CountField(default=ExportOptions.min_words, min_value=0)
    max_words = CountField(default=ExportOptions.max_words, min_value=0)
    min_sentences = CountField(default=ExportOptions.min_sentences, min_value=0)
    max_sentences = CountField(default=ExportOptions.max_sentences, min_value=0)
    remove_tags = serializers.BooleanField(default=False)
    remove_speaker_names = serializers.BooleanField(default=False)
    remove_headings = serializers.BooleanField(default=False)
    remove_unk = serializers.BooleanField(default=False)
    split_seed = serializers.CharField(default=ExportOptions.split_seed, max_length=100)
    valid_ratio = serializers.FloatField(
        default=ExportOptions.valid_ratio, min_value=0.0, max_value=1.0
    )
    test_ratio = serializers.FloatField(
        default=ExportOptions.test_ratio, min_value=0.0, max_value=1.0
    )
    annotator_labels = serializers.BooleanField(
        default=False,
        help_text="Add each annotator's labels of the pair's turns (gold of several annotators).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for low, high in (("min_words", "max_words"), ("min_sentences", "max_sentences")):
            if attrs[low] > attrs[high]:
                raise serializers.ValidationError({low: f"must not exceed {high}."})
        if attrs["valid_ratio"] + attrs["test_ratio"] > 1:
            raise serializers.ValidationError(
                {"test_ratio": "valid_ratio + test_ratio must not exceed 1."}
            )
        return attrs


class _ExportApi(APIView):
    permission_classes = LEAD_OR_ADMIN
    filename = ""
    content_type = ""
    takes_filters = True

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        """The body is a file whatever the client accepts; errors are JSON."""
        return super().perform_content_negotiation(request, force=True)

    def _options(self, request: SignedInRequest) -> ExportOptions | None:
        """The export's filters, or None for a format that takes none."""
        if self.takes_filters:
            return self._filters(request)
        self._refuse_unknown_parameters(request, allowed=set())
        return None

    def _filters(self, request: SignedInRequest) -> ExportOptions:
        self._refuse_unknown_parameters(request, allowed=set(ExportQuerySerializer().fields))
        serializer = ExportQuerySerializer(data=request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        return ExportOptions(**serializer.validated_data)

    @staticmethod
    def _refuse_unknown_parameters(request: SignedInRequest, *, allowed: set[str]) -> None:
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            known = f"use {', '.join(sorted(allowed))}" if allowed else "this export takes none"
            raise serializers.ValidationError(
                {name: [f"Unknown query parameter; {known}."] for name in unknown}
            )

    def _stream(
        self, request: SignedInRequest, project_id: int, pieces: Iterable[bytes]
    ) -> StreamingHttpResponse:
        response = StreamingHttpResponse(pieces, content_type=self.content_type)
        response["Content-Disposition"] = (
            f'attachment; filename="project-{project_id}-{self.filename}"'
        )
        return response

    def _begin(self, request: SignedInRequest, project_id: int) -> tuple[Project, Any]:
        """The project and the export's options (`ExportOptions` where the view
        `takes_filters`, else None), once the export is recorded."""
        options = self._options(request)
        project = project_get(project_id=project_id)
        export_record(
            actor=request.user, project=project, export_format=self.filename, options=options
        )
        return project, options


def _file(media_type: str, kind: OpenApiTypes, description: str) -> dict:
    return {(200, media_type): OpenApiResponse(kind, description=description)}


class ExportJsonlApi(_ExportApi):
    filename, content_type = "pairs.jsonl", "application/x-ndjson; charset=utf-8"

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses=_file(
            "application/x-ndjson",
            OpenApiTypes.STR,
            "One JSON object per line and pair, with the fields of docs/exports.md.",
        ),
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        _, options = self._begin(request, project_id)
        records = export_records(project_id=project_id, options=options)
        return self._stream(request, project_id, chunked(jsonl_pieces(records)))


class ExportCsvApi(_ExportApi):
    filename, content_type = "pairs.csv", "text/csv; charset=utf-8"

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses=_file("text/csv", OpenApiTypes.STR, "A header row, then one row per pair."),
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        _, options = self._begin(request, project_id)
        records = export_records(project_id=project_id, options=options)
        pieces = csv_pieces(records, record_fields(options))
        return self._stream(request, project_id, chunked(pieces))


class ExportParallelApi(_ExportApi):
    filename, content_type = "parallel.zip", "application/zip"

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses=_file(
            "application/zip", OpenApiTypes.BINARY, "Line-aligned source and target per split."
        ),
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        project, options = self._begin(request, project_id)
        members = parallel_members(project_id=project_id, options=options, title=project.name)
        return self._stream(request, project_id, stream_zip(members))


class ExportHuggingFaceApi(_ExportApi):
    filename, content_type = "huggingface.zip", "application/zip"

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses={
            **_file(
                "application/zip", OpenApiTypes.BINARY, "A dataset `datasets.load_dataset` reads."
            ),
            (409, "application/json"): OpenApiResponse(
                inline_serializer(ERROR_COMPONENT, {"detail": serializers.CharField()}),
                description="The filters leave no record: a dataset of nothing would not load "
                "(`detail` says which filter to loosen).",
            ),
        },
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        project, options = self._begin(request, project_id)
        configurations = {
            "summaries_of": project if is_talk(project) else None,
            "salience_of": project if is_podcast(project) else None,
        }
        require_loadable(project_id=project_id, options=options, **configurations)
        members = huggingface_members(
            project_id=project_id,
            options=options,
            title=project.name,
            language=project.language,
            license_id=project.settings.get("license"),
            **configurations,
        )
        return self._stream(request, project_id, stream_zip(members))


class SummaryLengthsSerializer(serializers.Serializer):
    words = serializers.CharField(
        default="150,250",
        help_text="Summary lengths in words, comma-separated (TalkSumm's 150 and 250 when "
        "unset; empty for none).",
    )
    ratios = serializers.CharField(
        default="0.3,0.4",
        help_text="Summary lengths as shares of the report's words, comma-separated, each in "
        "(0, 1] (0.3 and 0.4 when unset; empty for none).",
    )

    def validate(self, attrs: dict[str, Any]) -> SummaryLengths:
        try:
            return SummaryLengths(
                words=tuple(int(value) for value in _listed(attrs["words"])),
                ratios=tuple(float(value) for value in _listed(attrs["ratios"])),
            )
        except ValueError as error:
            raise serializers.ValidationError(
                f"{error}; give e.g. words=150,250 and ratios=0.3,0.4."
            ) from error


def _listed(text: str) -> list[str]:
    return [value.strip() for value in text.split(",") if value.strip()]


class ExportSummariesApi(_ExportApi):
    """TalkSumm's importance and summaries per document (docs/talk-projects.md)."""

    filename, content_type = "summaries.jsonl", "application/x-ndjson; charset=utf-8"
    takes_filters = False

    @extend_schema(
        parameters=[SummaryLengthsSerializer],
        responses=_file(
            "application/x-ndjson",
            OpenApiTypes.STR,
            "One JSON object per line and document: its report units in order with their "
            "importance (spoken words) and rank, and the extractive summaries.",
        ),
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        self._refuse_unknown_parameters(request, allowed={"words", "ratios"})
        serializer = SummaryLengthsSerializer(data=request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        lengths = serializer.validated_data
        project = project_get(project_id=project_id)
        export_record(
            actor=request.user, project=project, export_format=self.filename, options=None
        )
        records = summary_records(project=project, lengths=lengths)
        return self._stream(request, project_id, chunked(jsonl_pieces(records)))


class SalienceQuerySerializer(serializers.Serializer):
    candidates_only = serializers.BooleanField(
        default=False,
        help_text=f"Only the candidate units: the first {SalienceConfig.first} and last "
        f"{SalienceConfig.last} of each transcript, as the podcast paper limits them.",
    )


class ExportSalienceApi(_ExportApi):
    """Salience labels per transcript unit (docs/podcasts.md)."""

    filename, content_type = "salience.jsonl", "application/x-ndjson; charset=utf-8"
    takes_filters = False

    @extend_schema(
        parameters=[SalienceQuerySerializer],
        responses=_file(
            "application/x-ndjson",
            OpenApiTypes.STR,
            "One JSON object per line and transcript unit: its text and times, its ROUGE-2 "
            "score against the best description sentence, the automatic and the gold label.",
        ),
    )
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        self._refuse_unknown_parameters(request, allowed={"candidates_only"})
        serializer = SalienceQuerySerializer(data=request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        project = project_get(project_id=project_id)
        export_record(
            actor=request.user, project=project, export_format=self.filename, options=None
        )
        records = salience_records(project=project, **serializer.validated_data)
        return self._stream(request, project_id, chunked(jsonl_pieces(records)))


class ExportPublicMeetingsApi(_ExportApi):
    """The whole project (documents, pre-alignments, gold), importable into another."""

    filename, content_type = "public-meetings.json", "application/json"
    takes_filters = False

    @extend_schema(responses={(200, "application/json"): PublicMeetingsExportSerializer})
    def get(self, request: SignedInRequest, project_id: int) -> StreamingHttpResponse:
        self._begin(request, project_id)
        pieces = chunked(public_meetings_pieces(project_id=project_id))
        return self._stream(request, project_id, pieces)


class ExportPreviewApi(_ExportApi):
    @extend_schema(parameters=[ExportQuerySerializer], responses=ExportPreviewSerializer)
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        options = self._filters(request)
        project = project_get(project_id=project_id)
        preview = export_preview(project_id=project_id, options=options)
        salience = salience_summary(project=project) if is_podcast(project) else None
        return Response(ExportPreviewSerializer({**preview, "salience": salience}).data)


class PublicMeetingsImportApi(APIView):
    """Imports a public_meetings-layout JSON file (the package's data or a Tandem export)."""

    permission_classes = LEAD_OR_ADMIN
    parser_classes = [MultiPartParser]

    class InputSerializer(serializers.Serializer):
        file = serializers.FileField(help_text="The JSON file.")

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        responses={201: DocumentOutputSerializer(many=True)},
    )
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        upload = request.FILES.get("file")
        if upload is None:
            raise InvalidInput(
                "Send the JSON file as the multipart file field 'file'.", field="file"
            )
        check_total_size(upload.size)
        project = project_get(project_id=project_id)
        try:
            data = parse_json(upload.name, upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ReaderError) as error:
            raise InvalidInput(f"The file is not UTF-8 JSON: {error}.", field="file") from error
        documents = public_meetings_import(
            actor=request.user, project=project, meetings=_parsed(data)
        )
        return Response(
            DocumentOutputSerializer(documents, many=True).data, status=status.HTTP_201_CREATED
        )


def _parsed(data: Any) -> list[ParsedMeeting]:
    try:
        return parse_public_meetings(data)
    except LayoutError as error:
        raise InvalidInput(str(error), field=error.where) from error
