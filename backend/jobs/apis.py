from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.jobs.models import Job
from backend.jobs.selectors import job_get, job_list
from backend.jobs.services import job_cancel
from backend.projects.permissions import LEAD_OR_ADMIN


class JobResultField(serializers.JSONField):
    """What a finished job produced, by kind (empty until it succeeds), shown as stored. Its
    schema names the results of every kind of job, which the apps above define: the app that
    may import them all describes it (backend/tuning/schema.py)."""


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
    def get(self, request: SignedInRequest, project_id: int) -> Response:
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
    def get(self, request: SignedInRequest, project_id: int, job_id: int) -> Response:
        return Response(JobOutputSerializer(job_get(project_id=project_id, job_id=job_id)).data)


class JobCancelApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=None, responses=JobOutputSerializer)
    def post(self, request: SignedInRequest, project_id: int, job_id: int) -> Response:
        job = job_cancel(actor=request.user, job=job_get(project_id=project_id, job_id=job_id))
        return Response(JobOutputSerializer(job).data)
