"""The lead's dashboards: each endpoint is one chart's data. Lead (or administrator) only."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.errors import InvalidInput
from backend.core.pagination import paginated_response
from backend.dashboards.selectors import (
    CANDIDATE_ORDERINGS,
    accuracy_by_iteration,
    active_jobs,
    annotator_effort,
    corpus_growth,
    tuning_candidates,
    tuning_run_for,
)
from backend.iterations.selectors import RECORD_METRICS
from backend.iterations.serializers import AccuracySerializer, TuningBriefSerializer
from backend.jobs.apis import JobOutputSerializer
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get
from backend.tuning.serializers import CandidateOutputSerializer


class AccuracyDashboardApi(APIView):
    """Human-evaluated and automatic accuracy per iteration: values per document (box plot,
    histogram) and their count, mean, median, quartiles and extremes."""

    permission_classes = LEAD_OR_ADMIN

    class IterationSerializer(serializers.Serializer):
        iteration = serializers.IntegerField(source="iteration.pk")
        number = serializers.IntegerField(source="iteration.number")
        status = serializers.CharField(source="iteration.status")
        documents = serializers.ListField(
            child=serializers.DictField(), help_text="{document, name, <metric>: value}"
        )
        summary = AccuracySerializer()

    class OutputSerializer(serializers.Serializer):
        metrics = serializers.ListField(child=serializers.CharField())
        iterations = serializers.ListField()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        rows = accuracy_by_iteration(project_id=project_id)
        return Response(
            {
                "metrics": list(RECORD_METRICS),
                "iterations": self.IterationSerializer(rows, many=True).data,
            }
        )


class TuningDashboardApi(APIView):
    """The candidate table (the paper's Table 1) of the latest tuning run, or of
    `?iteration=<id>`'s; `?ordering=` any score, `-` for descending; paginated."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(
        parameters=[
            OpenApiParameter("iteration", int),
            OpenApiParameter(
                "ordering",
                str,
                enum=[*CANDIDATE_ORDERINGS, *(f"-{name}" for name in CANDIDATE_ORDERINGS)],
            ),
        ],
        responses=CandidateOutputSerializer(many=True),
    )
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        run = tuning_run_for(project_id=project_id, iteration_id=_optional_id(request, "iteration"))
        response = paginated_response(
            queryset=tuning_candidates(
                run=run, ordering=request.query_params.get("ordering", "rank")
            ),
            serializer_class=CandidateOutputSerializer,
            request=request,
            view=self,
        )
        response.data["run"] = TuningBriefSerializer(run).data
        return response


def _optional_id(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    try:
        return int(value)
    except ValueError as error:
        raise InvalidInput(f"{name} must be an id, got {value!r}.", field=name) from error


class EffortDashboardApi(APIView):
    """Annotator effort per iteration: turns changed and time, per document and in total."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(
        responses=inline_serializer(
            "EffortDashboard", {"rows": serializers.ListField(child=serializers.DictField())}
        )
    )
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        return Response({"rows": annotator_effort(project_id=project_id)})


class CorpusDashboardApi(APIView):
    """Gold pairs and trusted automatic pairs as each iteration closed, and now."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, project_id: int) -> Response:
        return Response(corpus_growth(project=project_get(project_id=project_id)))


class JobsDashboardApi(APIView):
    """Queued and running jobs with their progress, oldest first; poll it."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=JobOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        return Response(
            {"jobs": JobOutputSerializer(active_jobs(project_id=project_id), many=True).data}
        )
