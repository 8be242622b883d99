from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.parsers import JSONParser
from backend.core.serializers import IdField
from backend.documents.models import Document
from backend.documents.selectors import document_get, document_list
from backend.documents.services import (
    UNCHANGED,
    document_delete,
    document_update,
    document_upload,
)
from backend.documents.uploads import check_total_size, check_upload
from backend.jobs.apis import JobOutputSerializer
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN, sees_only_assigned
from backend.projects.selectors import project_get, report_kind

# Multipart framing around the files; anything beyond is refused before it is read.
MULTIPART_OVERHEAD_BYTES = 1024 * 1024


class CallersAnnotationSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)


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

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_assignees(self, document: Document) -> list[int]:
        return [user.pk for user in document.assignees.all()]

    @extend_schema_field(CallersAnnotationSerializer(allow_null=True))
    def get_my_annotation(self, document: Document) -> dict | None:
        mine = getattr(document, "callers_annotations", None)
        return CallersAnnotationSerializer(mine[0]).data if mine else None


class DocumentListApi(PaginatedApi):
    permission_classes = MEMBER_OR_ADMIN
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    class UploadInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=300, required=False, allow_blank=True)
        report = serializers.FileField(help_text="The report: .docx, .txt or .md.")
        transcript = serializers.ListField(
            child=serializers.FileField(),
            help_text="The transcript: .srt, .vtt, .json, or one or more .ctm parts.",
        )

    def get_permissions(self):
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
    def get(self, request: Request, project_id: int) -> Response:
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
    def post(self, request: Request, project_id: int) -> Response:
        content_length = int(request.META.get("CONTENT_LENGTH") or 0)
        check_total_size(max(0, content_length - MULTIPART_OVERHEAD_BYTES))
        project = project_get(project_id=project_id)
        upload = check_upload(
            request.FILES.get("report"),
            request.FILES.getlist("transcript"),
            report_kind=report_kind(project),
        )
        job = document_upload(
            actor=request.user,
            project=project,
            name=str(request.POST.get("name", "")).strip()[:300],
            upload=upload,
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

    def get_permissions(self):
        if self.request.method in ("PATCH", "DELETE"):
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    def _document(self, request: Request, project_id: int, document_id: int) -> Document:
        return document_get(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )

    @extend_schema(responses=DocumentOutputSerializer)
    def get(self, request: Request, project_id: int, document_id: int) -> Response:
        document = self._document(request, project_id, document_id)
        return Response(DocumentOutputSerializer(document).data)

    @extend_schema(request=UpdateInputSerializer, responses=DocumentOutputSerializer)
    def patch(self, request: Request, project_id: int, document_id: int) -> Response:
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
    def delete(self, request: Request, project_id: int, document_id: int) -> Response:
        document_delete(
            actor=request.user, document=self._document(request, project_id, document_id)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
