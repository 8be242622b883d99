from django.http import HttpResponse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.models import ParameterSet
from backend.alignments.selectors import editor_payload_json, parameter_set_list
from backend.alignments.services import (
    AssignmentOperation,
    annotation_apply,
    annotation_reopen,
    annotation_submit,
    parameter_set_get_or_create,
    pre_align_start,
)
from backend.core.errors import Conflict, InvalidInput
from backend.core.pagination import paginated_response
from backend.documents.models import Document
from backend.documents.selectors import document_get
from backend.jobs.apis import JobOutputSerializer, accepted
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN, sees_only_assigned
from backend.projects.selectors import project_get

MAX_OPERATIONS = 1000


class AnnotationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    annotator = serializers.IntegerField(source="annotator_id")
    pre_alignment = serializers.IntegerField(source="pre_alignment_id", allow_null=True)
    assignments = serializers.ListField(child=serializers.IntegerField())
    changed = serializers.ListField(child=serializers.BooleanField())
    seconds_spent = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)


class EditorApi(APIView):
    """Everything the editor shows for one document, in one request."""

    permission_classes = MEMBER_OR_ADMIN

    @extend_schema(
        responses=inline_serializer(
            "EditorPayload",
            {
                "document": serializers.DictField(),
                "segments": serializers.ListField(child=serializers.DictField()),
                "turns": serializers.ListField(child=serializers.DictField()),
                "pre_alignment": serializers.DictField(allow_null=True),
                "annotation": AnnotationOutputSerializer(),
            },
        )
    )
    def get(self, request: Request, project_id: int, document_id: int) -> HttpResponse:
        payload = editor_payload_json(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )
        return HttpResponse(payload, content_type="application/json")


class OperationSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=["assign", "unalign", "reset"])
    first_turn = serializers.IntegerField(min_value=0)
    last_turn = serializers.IntegerField(min_value=0)
    segment = serializers.IntegerField(min_value=0, required=False, allow_null=True)

    def validate(self, attrs):
        if attrs["action"] == "assign" and attrs.get("segment") is None:
            raise serializers.ValidationError({"segment": "`assign` needs a segment."})
        if attrs["first_turn"] > attrs["last_turn"]:
            raise serializers.ValidationError({"last_turn": "must not be before first_turn."})
        return attrs


class _AnnotationWriteApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    def _document(self, request: Request, project_id: int, document_id: int):
        return document_get(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )


class AnnotationApi(_AnnotationWriteApi):
    """Bulk edits of the caller's annotation, all or nothing."""

    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=0)
        operations = serializers.ListField(
            child=OperationSerializer(), min_length=1, max_length=MAX_OPERATIONS
        )
        seconds_spent = serializers.IntegerField(min_value=0, required=False, default=0)

    @extend_schema(
        request=InputSerializer,
        responses={200: AnnotationOutputSerializer, 409: None},
        description="`version` is the one the edits were made on: 0 before the first write. "
        "A stale version answers 409 with `current`, the annotation as it now is.",
    )
    def post(self, request: Request, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        annotation = annotation_apply(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=data["version"],
            operations=[AssignmentOperation(**operation) for operation in data["operations"]],
            seconds_spent=data["seconds_spent"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class AnnotationSubmitApi(_AnnotationWriteApi):
    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=0)
        seconds_spent = serializers.IntegerField(min_value=0, required=False, default=0)

    @extend_schema(request=InputSerializer, responses={200: AnnotationOutputSerializer, 409: None})
    def post(self, request: Request, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        annotation = annotation_submit(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=serializer.validated_data["version"],
            seconds_spent=serializer.validated_data["seconds_spent"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class AnnotationReopenApi(_AnnotationWriteApi):
    """Take the caller's submission back for more corrections (until the iteration closes)."""

    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=0)

    @extend_schema(request=InputSerializer, responses={200: AnnotationOutputSerializer, 409: None})
    def post(self, request: Request, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        annotation = annotation_reopen(
            annotator=request.user,
            document=self._document(request, project_id, document_id),
            version=serializer.validated_data["version"],
        )
        return Response(AnnotationOutputSerializer(annotation).data)


class ParameterSetListApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        params = serializers.DictField()
        engine_version = serializers.CharField(max_length=64, required=False, default="")

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        params = serializers.JSONField()
        engine_version = serializers.CharField()
        created_at = serializers.DateTimeField()

    def get_permissions(self):
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        return paginated_response(
            queryset=parameter_set_list(project_id=project_id),
            serializer_class=self.OutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_get(project_id=project_id)
        if (
            parameter_set_list(project_id=project_id)
            .filter(name=serializer.validated_data["name"])
            .exists()
        ):
            raise Conflict(f"A parameter set named {serializer.validated_data['name']!r} exists.")
        parameter_set = parameter_set_get_or_create(
            project=project, actor=request.user, **serializer.validated_data
        )
        return Response(self.OutputSerializer(parameter_set).data, status=status.HTTP_201_CREATED)


class PreAlignmentStartApi(APIView):
    """Queue the pre-alignment of an iteration's documents, or of listed documents."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        parameter_set = serializers.IntegerField()
        documents = serializers.ListField(
            child=serializers.IntegerField(), required=False, min_length=1, max_length=10000
        )
        iteration = serializers.IntegerField(required=False)

        def validate(self, attrs):
            if ("documents" in attrs) == ("iteration" in attrs):
                raise serializers.ValidationError("Send either `documents` or `iteration`.")
            return attrs

    @extend_schema(request=InputSerializer, responses={202: JobOutputSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        project = project_get(project_id=project_id)
        parameter_set = ParameterSet.objects.filter(
            project_id=project_id, pk=data["parameter_set"]
        ).first()
        if parameter_set is None:
            raise InvalidInput(
                f"Project {project_id} has no parameter set {data['parameter_set']}.",
                field="parameter_set",
            )
        if "iteration" in data:
            documents = Document.objects.filter(
                project_id=project_id, iteration_id=data["iteration"]
            )
        else:
            documents = Document.objects.filter(project_id=project_id, pk__in=data["documents"])
            missing = sorted(set(data["documents"]) - {document.pk for document in documents})
            if missing:
                raise InvalidInput(
                    f"Project {project_id} has no documents {missing}.", field="documents"
                )
        job = pre_align_start(
            actor=request.user,
            project=project,
            documents=documents.order_by("pk").defer("segments_json", "turns_json"),
            parameter_set=parameter_set,
        )
        return accepted(job)
