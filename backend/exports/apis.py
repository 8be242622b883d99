"""Export endpoints: every format streams, so a corpus is never held whole in memory and
the first bytes leave at once; the preview answers with counts only.

Filters are query parameters, validated before anything is read; an unknown parameter is
refused rather than ignored, since a misspelt filter would silently export another corpus.
"""

import json

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.errors import InvalidInput
from backend.documents.apis import DocumentOutputSerializer
from backend.documents.uploads import check_total_size
from backend.exports.formats.huggingface import huggingface_members
from backend.exports.formats.parallel import parallel_members
from backend.exports.formats.public_meetings import public_meetings_pieces
from backend.exports.formats.records import csv_pieces, jsonl_pieces
from backend.exports.formats.streams import chunked, stream_zip
from backend.exports.options import ExportOptions
from backend.exports.public_meetings_reader import parse_public_meetings
from backend.exports.selectors import export_preview, export_records
from backend.exports.services import export_record, public_meetings_import
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get


class ExportQuerySerializer(serializers.Serializer):
    include_automatic = serializers.BooleanField(
        default=False, help_text="Add automatic pairs from documents without gold."
    )
    min_confidence = serializers.FloatField(
        default=0.0, min_value=0.0, max_value=1.0, help_text="Lowest automatic pair confidence."
    )
    min_words = serializers.IntegerField(default=ExportOptions.min_words, min_value=0)
    max_words = serializers.IntegerField(default=ExportOptions.max_words, min_value=0)
    min_sentences = serializers.IntegerField(default=ExportOptions.min_sentences, min_value=0)
    max_sentences = serializers.IntegerField(default=ExportOptions.max_sentences, min_value=0)
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

    def validate(self, attrs):
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

    def perform_content_negotiation(self, request, force=False):
        """The body is a file whatever the client accepts; errors are JSON."""
        return super().perform_content_negotiation(request, force=True)

    def _options(self, request: Request) -> ExportOptions | None:
        allowed = set(ExportQuerySerializer().fields) if self.takes_filters else set()
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            known = f"use {', '.join(sorted(allowed))}" if allowed else "this export takes none"
            raise serializers.ValidationError(
                {name: [f"Unknown query parameter; {known}."] for name in unknown}
            )
        if not self.takes_filters:
            return None
        serializer = ExportQuerySerializer(data=request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        return ExportOptions(**serializer.validated_data)

    def _stream(self, request: Request, project_id: int, pieces) -> StreamingHttpResponse:
        response = StreamingHttpResponse(pieces, content_type=self.content_type)
        response["Content-Disposition"] = (
            f'attachment; filename="project-{project_id}-{self.filename}"'
        )
        return response

    def _begin(self, request: Request, project_id: int):
        options = self._options(request)
        project = project_get(project_id=project_id)
        export_record(
            actor=request.user, project=project, export_format=self.filename, options=options
        )
        return project, options


_FILE = OpenApiResponse(OpenApiTypes.BINARY, description="The export, streamed.")


class ExportJsonlApi(_ExportApi):
    filename, content_type = "pairs.jsonl", "application/x-ndjson; charset=utf-8"

    @extend_schema(parameters=[ExportQuerySerializer], responses={200: _FILE})
    def get(self, request: Request, project_id: int) -> StreamingHttpResponse:
        _, options = self._begin(request, project_id)
        records = export_records(project_id=project_id, options=options)
        return self._stream(request, project_id, chunked(jsonl_pieces(records)))


class ExportCsvApi(_ExportApi):
    filename, content_type = "pairs.csv", "text/csv; charset=utf-8"

    @extend_schema(parameters=[ExportQuerySerializer], responses={200: _FILE})
    def get(self, request: Request, project_id: int) -> StreamingHttpResponse:
        _, options = self._begin(request, project_id)
        records = export_records(project_id=project_id, options=options)
        return self._stream(request, project_id, chunked(csv_pieces(records)))


class ExportParallelApi(_ExportApi):
    filename, content_type = "parallel.zip", "application/zip"

    @extend_schema(parameters=[ExportQuerySerializer], responses={200: _FILE})
    def get(self, request: Request, project_id: int) -> StreamingHttpResponse:
        project, options = self._begin(request, project_id)
        members = parallel_members(project_id=project_id, options=options, title=project.name)
        return self._stream(request, project_id, stream_zip(members))


class ExportHuggingFaceApi(_ExportApi):
    filename, content_type = "huggingface.zip", "application/zip"

    @extend_schema(parameters=[ExportQuerySerializer], responses={200: _FILE})
    def get(self, request: Request, project_id: int) -> StreamingHttpResponse:
        project, options = self._begin(request, project_id)
        members = huggingface_members(
            project_id=project_id, options=options, title=project.name, language=project.language
        )
        return self._stream(request, project_id, stream_zip(members))


class ExportPublicMeetingsApi(_ExportApi):
    """The whole project (documents, pre-alignments, gold), importable into another."""

    filename, content_type = "public-meetings.json", "application/json"
    takes_filters = False

    @extend_schema(responses={200: _FILE})
    def get(self, request: Request, project_id: int) -> StreamingHttpResponse:
        self._begin(request, project_id)
        pieces = chunked(public_meetings_pieces(project_id=project_id))
        return self._stream(request, project_id, pieces)


class ExportPreviewApi(_ExportApi):
    @extend_schema(parameters=[ExportQuerySerializer], responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, project_id: int) -> Response:
        options = self._options(request)
        project_get(project_id=project_id)
        return Response(export_preview(project_id=project_id, options=options))


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
    def post(self, request: Request, project_id: int) -> Response:
        upload = request.FILES.get("file")
        if upload is None:
            raise InvalidInput(
                "Send the JSON file as the multipart file field 'file'.", field="file"
            )
        check_total_size(upload.size)
        project = project_get(project_id=project_id)
        try:
            data = json.load(upload)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InvalidInput(f"The file is not UTF-8 JSON: {error}.", field="file") from error
        documents = public_meetings_import(
            actor=request.user, project=project, meetings=parse_public_meetings(data)
        )
        return Response(
            DocumentOutputSerializer(documents, many=True).data, status=status.HTTP_201_CREATED
        )
