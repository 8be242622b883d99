from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.models import ParameterSet
from backend.core.pagination import paginated_response
from backend.projects.models import Role
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN
from backend.projects.selectors import (
    member_role,
    membership_get,
    membership_list,
    project_get,
    project_list,
)
from backend.projects.services import (
    membership_create,
    membership_delete,
    membership_update,
    project_create,
    project_delete,
    project_update,
)


class ProjectOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    language = serializers.CharField()
    promoted_parameter_set = serializers.IntegerField(
        source="promoted_parameter_set_id", allow_null=True
    )
    settings = serializers.JSONField()
    role = serializers.CharField(source="caller_role", allow_null=True, default=None)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ProjectInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True)
    language = serializers.CharField(max_length=16, required=False)
    settings = serializers.DictField(required=False)


class ProjectListApi(APIView):
    """Any signed-in user may start a project and becomes its lead."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=ProjectOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return paginated_response(
            queryset=project_list(user=request.user),
            serializer_class=ProjectOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=ProjectInputSerializer, responses={201: ProjectOutputSerializer})
    def post(self, request: Request) -> Response:
        serializer = ProjectInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_create(creator=request.user, **serializer.validated_data)
        project.caller_role = Role.LEAD
        return Response(ProjectOutputSerializer(project).data, status=status.HTTP_201_CREATED)


class ProjectDetailApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class UpdateInputSerializer(ProjectInputSerializer):
        name = serializers.CharField(max_length=200, required=False)
        promoted_parameter_set = serializers.PrimaryKeyRelatedField(
            queryset=ParameterSet.objects.all(), allow_null=True, required=False
        )

    def get_permissions(self):
        if self.request.method in ("PATCH", "DELETE"):
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    def _project(self, request: Request, project_id: int):
        project = project_get(project_id=project_id)
        project.caller_role = member_role(project=project, user=request.user)
        return project

    @extend_schema(responses=ProjectOutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        return Response(ProjectOutputSerializer(self._project(request, project_id)).data)

    @extend_schema(request=UpdateInputSerializer, responses=ProjectOutputSerializer)
    def patch(self, request: Request, project_id: int) -> Response:
        serializer = self.UpdateInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        project = project_update(
            actor=request.user,
            project=self._project(request, project_id),
            **serializer.validated_data,
        )
        return Response(ProjectOutputSerializer(project).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, project_id: int) -> Response:
        project_delete(actor=request.user, project=project_get(project_id=project_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembershipOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()
    created_at = serializers.DateTimeField()


class MembershipListApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(required=False, max_length=150)
        user = serializers.IntegerField(required=False)
        role = serializers.ChoiceField(choices=Role.choices)

    def get_permissions(self):
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=MembershipOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        return paginated_response(
            queryset=membership_list(project_id=project_id),
            serializer_class=MembershipOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: MembershipOutputSerializer},
        description="The new member is named by `username` or by `user` id (one of the two).",
    )
    def post(self, request: Request, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        membership = membership_create(
            actor=request.user,
            project=project_get(project_id=project_id),
            user_id=data.get("user"),
            username=data.get("username"),
            role=data["role"],
        )
        return Response(MembershipOutputSerializer(membership).data, status=status.HTTP_201_CREATED)


class MembershipDetailApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(choices=Role.choices)

    @extend_schema(request=InputSerializer, responses=MembershipOutputSerializer)
    def patch(self, request: Request, project_id: int, membership_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = membership_update(
            actor=request.user,
            membership=membership_get(project_id=project_id, membership_id=membership_id),
            role=serializer.validated_data["role"],
        )
        return Response(MembershipOutputSerializer(membership).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, project_id: int, membership_id: int) -> Response:
        membership_delete(
            actor=request.user,
            membership=membership_get(project_id=project_id, membership_id=membership_id),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
