from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.serializers import (
    AlignmentParamsSerializer,
    PreAlignmentWarningSerializer,
)
from backend.core.pagination import PaginatedApi, paginated_response
from backend.jobs.models import Job
from backend.jobs.selectors import job_get, job_list
from backend.jobs.services import job_cancel
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.tuning.serializers import LearnedResultSerializer


class IncumbentResultSerializer(serializers.Serializer):
    name = serializers.CharField()
    objective = serializers.FloatField(allow_null=True)


class DocumentWarningSerializer(PreAlignmentWarningSerializer):
    document = serializers.IntegerField(help_text="The document whose pre-alignment it is.")


class JobResultSerializer(serializers.Serializer):
    """What a finished job produced, by kind; empty until it succeeds. The schema of
    `JobResultField`: results are shown as stored, and the API tests fail on a key this
    does not list."""

    document = serializers.IntegerField(required=False, help_text="Import: the document.")
    segments = serializers.IntegerField(required=False, help_text="Import: report segments.")
    turns = serializers.IntegerField(required=False, help_text="Import: transcript turns.")
    words = serializers.IntegerField(required=False, help_text="Import: transcript words.")
    pre_alignments = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Pre-alignment: the pre-alignments stored.",
    )
    resumed = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Pre-alignment: documents an earlier delivery had already stored.",
    )
    parameter_set = serializers.IntegerField(required=False, help_text="Pre-alignment.")
    warnings = DocumentWarningSerializer(
        many=True,
        required=False,
        help_text="Pre-alignment: what the engine found degenerate in each document's result.",
    )
    word_vectors = serializers.IntegerField(required=False, help_text="Word vectors: their id.")
    vocabulary_size = serializers.IntegerField(required=False, help_text="Word vectors.")
    sentences = serializers.IntegerField(required=False, help_text="Word vectors: trained on.")
    segmented_by = serializers.ChoiceField(
        choices=["speakers", "paragraphs", "sentences", "sections"],
        required=False,
        help_text="Import: how the report was cut into segments.",
    )
    documents = serializers.IntegerField(
        required=False, help_text="Word vectors: documents read; tuning: gold documents."
    )
    tuning_run = serializers.IntegerField(required=False, help_text="Tuning: the run.")
    best_candidate = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Tuning: the proposal; null when no candidate beats the incumbent.",
    )
    params = AlignmentParamsSerializer(
        required=False, help_text="Tuning: the best settings other than the incumbent."
    )
    segment_accuracy = serializers.FloatField(required=False, allow_null=True)
    word_accuracy = serializers.FloatField(required=False, allow_null=True)
    window_diff = serializers.FloatField(required=False, allow_null=True)
    objective = serializers.FloatField(required=False, allow_null=True)
    ranked_by = serializers.CharField(required=False, help_text="Tuning: the objective.")
    incumbent = IncumbentResultSerializer(
        required=False,
        allow_null=True,
        help_text="Tuning: the parameters in use when the run started, and their objective.",
    )
    learned = LearnedResultSerializer(
        required=False,
        allow_null=True,
        help_text="Tuning: the learned decision fitted for the best candidate on the gold "
        "(null for an aligner other than the turn path).",
    )


@extend_schema_field(JobResultSerializer)
class JobResultField(serializers.JSONField):
    pass


class JobOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Job.Kind.choices)
    status = serializers.ChoiceField(choices=Job.Status.choices)
    progress = serializers.FloatField()
    message = serializers.CharField()
    error = serializers.CharField()
    result = JobResultField()
    retries = serializers.IntegerField()
    document = serializers.IntegerField(source="document_id", allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


def accepted(job: Job) -> Response:
    """202 with the job and, in `Location`, the URL to poll."""
    response = Response(JobOutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)
    response["Location"] = f"/api/v1/projects/{job.project_id}/jobs/{job.pk}/"
    return response


class JobListApi(PaginatedApi):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=Job.Status.values)],
        responses=JobOutputSerializer(many=True),
    )
    def get(self, request: Request, project_id: int) -> Response:
        return paginated_response(
            queryset=job_list(project_id=project_id, status=request.query_params.get("status")),
            serializer_class=JobOutputSerializer,
            request=request,
            view=self,
        )


class JobDetailApi(APIView):
    """The task-status endpoint a client polls after starting a job."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=JobOutputSerializer)
    def get(self, request: Request, project_id: int, job_id: int) -> Response:
        return Response(JobOutputSerializer(job_get(project_id=project_id, job_id=job_id)).data)


class JobCancelApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=None, responses=JobOutputSerializer)
    def post(self, request: Request, project_id: int, job_id: int) -> Response:
        job = job_cancel(actor=request.user, job=job_get(project_id=project_id, job_id=job_id))
        return Response(JobOutputSerializer(job).data)
