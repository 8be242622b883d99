"""The bootstrap loop over HTTP: leads open, close and promote; members read."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.pagination import paginated_response
from backend.iterations.selectors import (
    accuracy_summary,
    batch_documents,
    iteration_documents,
    iteration_get,
    iteration_list,
    iteration_record,
    promotable_candidate,
    promotable_parameter_set,
)
from backend.iterations.serializers import (
    IterationDetailSerializer,
    IterationOutputSerializer,
    RecordDetailSerializer,
)
from backend.iterations.services import (
    iteration_close,
    iteration_open,
    iteration_pre_align_again,
    iteration_promote,
    iteration_tune_again,
)
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN
from backend.projects.selectors import project_get

MAX_BATCH = 1000


def _detail(iteration) -> dict:
    iteration.accuracy = accuracy_summary(iteration)
    iteration.batch = iteration_documents(iteration=iteration)
    return IterationDetailSerializer(iteration).data


class IterationListApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        class AssignmentSerializer(serializers.Serializer):
            document = serializers.IntegerField()
            annotators = serializers.ListField(child=serializers.IntegerField(), max_length=100)

        name = serializers.CharField(max_length=200, required=False, allow_blank=True)
        documents = serializers.ListField(
            child=serializers.IntegerField(), min_length=1, max_length=MAX_BATCH
        )
        assignments = AssignmentSerializer(many=True, required=False)

    def get_permissions(self):
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=IterationOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        return paginated_response(
            queryset=iteration_list(project_id=project_id),
            serializer_class=IterationOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: IterationDetailSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        project = project_get(project_id=project_id)
        iteration = iteration_open(
            actor=request.user,
            project=project,
            documents=batch_documents(project_id=project_id, document_ids=data["documents"]),
            assignments={
                item["document"]: item["annotators"] for item in data.get("assignments", [])
            },
            name=data.get("name", ""),
        )
        detail = _detail(iteration_get(project_id=project_id, iteration_id=iteration.pk))
        return Response(detail, status=status.HTTP_201_CREATED)


class IterationDetailApi(APIView):
    """Everything about one iteration, past or present: its batch with assignees and
    annotations, the parameters it was pre-aligned with, its records and its tuning."""

    permission_classes = MEMBER_OR_ADMIN

    @extend_schema(responses=IterationDetailSerializer)
    def get(self, request: Request, project_id: int, iteration_id: int) -> Response:
        return Response(_detail(iteration_get(project_id=project_id, iteration_id=iteration_id)))


class IterationCloseApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        tune = serializers.BooleanField(default=True)
        grid = serializers.DictField(child=serializers.ListField(), required=False)

    @extend_schema(request=InputSerializer, responses=IterationDetailSerializer)
    def post(self, request: Request, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration_close(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            tune=serializer.validated_data["tune"],
            grid=serializer.validated_data.get("grid"),
        )
        return Response(_detail(iteration_get(project_id=project_id, iteration_id=iteration_id)))


class IterationPreAlignApi(APIView):
    """Starts a failed or cancelled pre-alignment of the batch again."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=None, responses=IterationDetailSerializer)
    def post(self, request: Request, project_id: int, iteration_id: int) -> Response:
        iteration_pre_align_again(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
        )
        return Response(_detail(iteration_get(project_id=project_id, iteration_id=iteration_id)))


class IterationTuneApi(APIView):
    """Starts a failed, cancelled or skipped tuning of a closed iteration again."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        grid = serializers.DictField(child=serializers.ListField(), required=False)

    @extend_schema(request=InputSerializer, responses=IterationDetailSerializer)
    def post(self, request: Request, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration_tune_again(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            grid=serializer.validated_data.get("grid"),
        )
        return Response(_detail(iteration_get(project_id=project_id, iteration_id=iteration_id)))


class IterationPromoteApi(APIView):
    """Promote the proposal (empty body), another candidate of the iteration's tuning run,
    or any parameter set of the project."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        candidate = serializers.IntegerField(required=False)
        parameter_set = serializers.IntegerField(required=False)

        def validate(self, attrs):
            if "candidate" in attrs and "parameter_set" in attrs:
                raise serializers.ValidationError("Name a candidate or a parameter set, not both.")
            return attrs

    class OutputSerializer(serializers.Serializer):
        promoted_parameter_set = serializers.IntegerField(source="pk")
        name = serializers.CharField()
        params = serializers.JSONField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request: Request, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
        parameter_set = iteration_promote(
            actor=request.user,
            iteration=iteration,
            candidate=promotable_candidate(iteration=iteration, candidate_id=data.get("candidate")),
            parameter_set=promotable_parameter_set(
                project_id=project_id, parameter_set_id=data.get("parameter_set")
            ),
        )
        return Response(self.OutputSerializer(parameter_set).data)


class IterationRecordApi(APIView):
    """One document's record with its label arrays: the pre-alignment as shown and the gold."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=RecordDetailSerializer)
    def get(self, request: Request, project_id: int, iteration_id: int, document_id: int):
        iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
        record = iteration_record(iteration=iteration, document_id=document_id)
        return Response(RecordDetailSerializer(record).data)
