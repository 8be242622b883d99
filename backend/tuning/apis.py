from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.errors import InvalidInput
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.serializers import IdField
from backend.documents.selectors import documents_by_ids
from backend.jobs.apis import JobOutputSerializer
from backend.jobs.models import Job
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get
from backend.tuning.models import TuningRun
from backend.tuning.selectors import (
    parameters_in_use,
    tuning_candidates,
    tuning_run_get,
    tuning_run_list,
)
from backend.tuning.serializers import (
    CANDIDATE_ORDERING_PARAMETER,
    CandidateOutputSerializer,
    GoldDocumentSerializer,
    GridField,
    StageSerializer,
    VerdictFieldsSerializer,
)
from backend.tuning.services import tuning_start

MAX_CANDIDATES = 1000


class RunOutputSerializer(VerdictFieldsSerializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Job.Status.choices)
    job = JobOutputSerializer()
    gold_documents = GoldDocumentSerializer(many=True)
    grid = GridField()
    stages = StageSerializer(many=True)
    ranked_by = serializers.ChoiceField(choices=TuningRun.RankedBy.choices)
    stage = serializers.IntegerField()
    settings_count = serializers.IntegerField()
    word_vectors = serializers.IntegerField(source="word_vectors_id", allow_null=True)
    best = CandidateOutputSerializer(
        allow_null=True,
        help_text="The proposal: the best candidate whose gain over the incumbent clears its "
        "bootstrap interval over the gold documents; else the incumbent recalibrated "
        "(`proposal_recalibrates`); null otherwise (`proposal_reason`).",
    )
    incumbent = CandidateOutputSerializer(source="incumbent_candidate", allow_null=True)
    incumbent_name = serializers.CharField()
    incumbent_note = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class TuningRunListApi(PaginatedApi):
    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        gold_documents = serializers.ListField(child=IdField(), min_length=1, max_length=10000)
        grid = GridField(required=False)
        stages = serializers.ListField(child=serializers.DictField(), max_length=10, required=False)
        ranked_by = serializers.ChoiceField(
            choices=TuningRun.RankedBy.choices, default=TuningRun.RankedBy.TURNS
        )

    @extend_schema(responses=RunOutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return paginated_response(
            queryset=tuning_run_list(project_id=project_id),
            serializer_class=RunOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        request=InputSerializer,
        responses={202: RunOutputSerializer},
        description="Gold is each document's latest submitted annotation. Without `grid`, "
        "the engine's shipped grid; without `stages`, the paper's two rounds. `ranked_by`: "
        "`turns` (default) ranks candidates by the share of gold turns they align right, "
        "`balanced` by segment + word accuracy - WindowDiff.",
    )
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        project = project_get(project_id=project_id)
        run = tuning_start(
            actor=request.user,
            project=project,
            gold_documents=documents_by_ids(
                project_id=project_id, document_ids=data["gold_documents"], field="gold_documents"
            ),
            grid=data.get("grid"),
            stages=data.get("stages"),
            ranked_by=data["ranked_by"],
            incumbent=parameters_in_use(project=project),
        )
        response = Response(RunOutputSerializer(run).data, status=status.HTTP_202_ACCEPTED)
        response["Location"] = f"/api/v1/projects/{project_id}/tuning-runs/{run.pk}/"
        return response


class TuningRunDetailApi(APIView):
    """The run and its candidates, sorted by `ordering` (best first; `-` for worst first)."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(RunOutputSerializer):
        candidates = CandidateOutputSerializer(many=True)

    @extend_schema(
        parameters=[
            CANDIDATE_ORDERING_PARAMETER,
            OpenApiParameter("limit", int, description=f"At most {MAX_CANDIDATES}; 50 if unset."),
        ],
        responses=OutputSerializer,
    )
    def get(self, request: SignedInRequest, project_id: int, run_id: int) -> Response:
        run = tuning_run_get(project_id=project_id, run_id=run_id)
        limit = _limit(request.query_params.get("limit", "50"))
        ordering = request.query_params.get("ordering", "rank")
        candidates = tuning_candidates(run=run, ordering=ordering)[:limit]
        data = RunOutputSerializer(run).data
        data["candidates"] = CandidateOutputSerializer(candidates, many=True).data
        return Response(data)


def _limit(raw: str) -> int:
    try:
        limit = int(raw)
    except ValueError as error:
        raise InvalidInput(f"limit must be a number, got {raw!r}.", field="limit") from error
    if not 1 <= limit <= MAX_CANDIDATES:
        raise InvalidInput(f"limit must be within 1..{MAX_CANDIDATES}.", field="limit")
    return limit
