from collections.abc import Sequence
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.selectors import (
    aligner_list,
    editor_payload_json,
    parameter_set_list,
    parameter_set_named,
)
from backend.alignments.serializers import (
    AlignerOutputSerializer,
    AlignmentParamsSerializer,
    AnnotationConflictSerializer,
    AnnotationOutputSerializer,
    EditorPayloadSerializer,
)
from backend.alignments.services.annotations import (
    AssignmentOperation,
    annotation_apply,
    annotation_reopen,
    annotation_submit,
)
from backend.alignments.services.positions import reading_position_save
from backend.alignments.services.pre_alignments import parameter_set_create, pre_align_start
from backend.core.authentication import Permission, SignedInRequest
from backend.core.errors import Conflict
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.serializers import CountField, IdField
from backend.documents.models import Document
from backend.documents.selectors import (
    document_get_for_write,
    documents_by_ids,
    documents_in_iteration,
)
from backend.jobs.apis import JobOutputSerializer, accepted
from backend.projects.permissions import (
    LEAD_OR_ADMIN,
    MEMBER_OR_ADMIN,
    may_adjudicate,
    sees_only_assigned,
)
from backend.projects.selectors import project_get
from workers.align.params import ALIGNERS

MAX_OPERATIONS = 1000
MAX_REVIEWED_TURNS = 100_000


class EditorApi(APIView):
    """Everything the editor shows for one document, in one request."""

    permission_classes = MEMBER_OR_ADMIN

    @extend_schema(responses=EditorPayloadSerializer)
    def get(self, request: SignedInRequest, project_id: int, document_id: int) -> HttpResponse:
        payload = editor_payload_json(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
            may_review=may_adjudicate(request, project_id),
        )
        return HttpResponse(payload, content_type="application/json")


class OperationSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["assign", "unalign", "reset"])
    first_turn = CountField()
    last_turn = CountField()
    segment = CountField(required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["action"] == "assign" and attrs.get("segment") is None:
            raise serializers.ValidationError({"segment": "`assign` needs a segment."})
        if attrs["first_turn"] > attrs["last_turn"]:
            raise serializers.ValidationError({"last_turn": "must not be before first_turn."})
        return attrs


class VersionInputSerializer(serializers.Serializer):
    """A write to a versioned copy (an annotation, an adjudication) names the version it was
    made on."""

    version = CountField()


class TimedVersionInputSerializer(VersionInputSerializer):
    seconds_spent = CountField(required=False, default=0)


class ReviewedVersionInputSerializer(TimedVersionInputSerializer):
    """A write to the caller's annotation also carries the turns reviewed since the last."""

    reviewed_turns = serializers.ListField(
        child=CountField(),
        required=False,
        default=list,
        max_length=MAX_REVIEWED_TURNS,
        help_text="Turns (from 0) the annotator visited or confirmed since the last write.",
    )


class EditBatchInputSerializer(TimedVersionInputSerializer):
    operations = serializers.ListField(
        child=OperationSerializer(), min_length=1, max_length=MAX_OPERATIONS
    )


class AnnotationEditInputSerializer(ReviewedVersionInputSerializer):
    operations = serializers.ListField(
        child=OperationSerializer(), required=False, default=list, max_length=MAX_OPERATIONS
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["operations"] and not attrs["reviewed_turns"]:
            raise serializers.ValidationError(
                {"operations": "Send at least one operation or one reviewed turn."}
            )
        return attrs


class AnnotationSubmitInputSerializer(ReviewedVersionInputSerializer):
    accept_unreviewed = serializers.BooleanField(
        required=False,
        default=False,
        help_text='The review mode\'s "accept the rest": every turn neither reviewed nor '
        "changed is recorded as accepted without review, in the gold and the exports.",
    )


class _AnnotationWriteApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    def _document(self, request: SignedInRequest, project_id: int, document_id: int) -> Document:
        return document_get_for_write(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )


class ReadingPositionApi(_AnnotationWriteApi):
    """Where the caller is in the document's editor, so another device opens it there."""

    class InputSerializer(serializers.Serializer):
        turn = CountField()

    @extend_schema(request=InputSerializer, responses={204: None})
    def put(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        reading_position_save(
            user=request.user,
            document=self._document(request, project_id, document_id),
            turn=serializer.validated_data["turn"],
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class AnnotationApi(_AnnotationWriteApi):
    """Bulk edits of the caller's annotation, all or nothing, and the turns reviewed."""

    InputSerializer = AnnotationEditInputSerializer

    @extend_schema(
        request=InputSerializer,
        responses={200: AnnotationOutputSerializer, 409: AnnotationConflictSerializer},
        description="`version` is the one the edits were made on: 0 before the first write. "
        "A stale version answers 409 with `current`, the annotation as it now is.",
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        annotation = annotation_apply(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=data["version"],
            operations=[AssignmentOperation(**operation) for operation in data["operations"]],
            seconds_spent=data["seconds_spent"],
            reviewed_turns=data["reviewed_turns"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class AnnotationSubmitApi(_AnnotationWriteApi):
    InputSerializer = AnnotationSubmitInputSerializer

    @extend_schema(
        request=InputSerializer,
        responses={200: AnnotationOutputSerializer, 409: AnnotationConflictSerializer},
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        annotation = annotation_submit(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=data["version"],
            seconds_spent=data["seconds_spent"],
            reviewed_turns=data["reviewed_turns"],
            accept_unreviewed=data["accept_unreviewed"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class AnnotationReopenApi(_AnnotationWriteApi):
    """Take the caller's submission back for more corrections (until the iteration closes)."""

    InputSerializer = VersionInputSerializer

    @extend_schema(
        request=InputSerializer,
        responses={200: AnnotationOutputSerializer, 409: AnnotationConflictSerializer},
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        annotation = annotation_reopen(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=serializer.validated_data["version"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class ParameterSetListApi(PaginatedApi):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        params = serializers.DictField(
            help_text="Checked against the aligner it names: see GET /api/v1/aligners/."
        )
        engine_version = serializers.CharField(max_length=64, required=False, default="")

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        params = AlignmentParamsSerializer()
        engine_version = serializers.CharField()
        created_at = serializers.DateTimeField()

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return paginated_response(
            queryset=parameter_set_list(project_id=project_id),
            serializer_class=self.OutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_get(project_id=project_id)
        if (
            parameter_set_list(project_id=project_id)
            .filter(name=serializer.validated_data["name"])
            .exists()
        ):
            raise Conflict(f"A parameter set named {serializer.validated_data['name']!r} exists.")
        parameter_set = parameter_set_create(
            project=project, actor=request.user, **serializer.validated_data
        )
        return Response(self.OutputSerializer(parameter_set).data, status=status.HTTP_201_CREATED)


class PreAlignmentStartApi(APIView):
    """Queue the pre-alignment of an iteration's documents, or of listed documents."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        parameter_set = IdField()
        documents = serializers.ListField(
            child=IdField(), required=False, min_length=1, max_length=10000
        )
        iteration = IdField(required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if ("documents" in attrs) == ("iteration" in attrs):
                raise serializers.ValidationError("Send either `documents` or `iteration`.")
            return attrs

    @extend_schema(request=InputSerializer, responses={202: JobOutputSerializer})
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        project = project_get(project_id=project_id)
        parameter_set = parameter_set_named(
            project_id=project_id, parameter_set_id=data["parameter_set"]
        )
        if "iteration" in data:
            documents = documents_in_iteration(
                project_id=project_id, iteration_id=data["iteration"]
            )
        else:
            documents = documents_by_ids(project_id=project_id, document_ids=data["documents"])
        job = pre_align_start(
            actor=request.user,
            project=project,
            documents=documents,
            parameter_set=parameter_set,
        )
        return accepted(job)


class AlignerListApi(APIView):
    """The aligners and the settings a parameter set or a tuning grid may give each: their
    type, default and meaning, read from the engine's own declarations."""

    permission_classes = [IsAuthenticated]

    class FilterSerializer(serializers.Serializer):
        aligner = serializers.ChoiceField(choices=list(ALIGNERS), required=False)

    @extend_schema(parameters=[FilterSerializer], responses=AlignerOutputSerializer(many=True))
    def get(self, request: SignedInRequest) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return Response(
            AlignerOutputSerializer(aligner_list(**filters.validated_data), many=True).data
        )
