from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.pagination import paginated_response
from backend.iterations.selectors import iteration_list
from backend.iterations.services import iteration_create
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN
from backend.projects.selectors import project_get


class IterationListApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False, allow_blank=True)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        number = serializers.IntegerField()
        name = serializers.CharField()
        status = serializers.CharField()
        created_at = serializers.DateTimeField()

    def get_permissions(self):
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        return paginated_response(
            queryset=iteration_list(project_id=project_id),
            serializer_class=self.OutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration = iteration_create(
            actor=request.user,
            project=project_get(project_id=project_id),
            **serializer.validated_data,
        )
        return Response(self.OutputSerializer(iteration).data, status=status.HTTP_201_CREATED)
