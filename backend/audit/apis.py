from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from backend.audit.selectors import audit_event_list
from backend.core.pagination import PaginatedApi, paginated_response
from backend.projects.permissions import LEAD_OR_ADMIN


class AuditEventListApi(PaginatedApi):
    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        actor = serializers.CharField(source="actor.username", allow_null=True, default=None)
        action = serializers.CharField()
        target_type = serializers.CharField()
        target_id = serializers.CharField()
        details = serializers.JSONField()
        created_at = serializers.DateTimeField()

    @extend_schema(
        parameters=[OpenApiParameter("action", str, description="Prefix, e.g. `document.`")],
        responses=OutputSerializer(many=True),
    )
    def get(self, request: Request, project_id: int) -> Response:
        events = audit_event_list(project_id=project_id, action=request.query_params.get("action"))
        return paginated_response(
            queryset=events, serializer_class=self.OutputSerializer, request=request, view=self
        )
