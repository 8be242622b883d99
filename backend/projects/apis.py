from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.audit.selectors import audit_event_list
from backend.core.authentication import Permission, SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.serializers import IdField
from backend.projects.defaults import (
    DEFAULT_LEARNED_DECISION,
    DEFAULT_LOW_CONFIDENCE,
    DEFAULT_TRUSTED_CONFIDENCE,
)
from backend.projects.models import Project, Role
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN, MayCreateProjectsOrReads
from backend.projects.podcasts import MAX_WINDOW_SECONDS, MIN_WINDOW_SECONDS, TRANSCRIPT_UNITS
from backend.projects.selectors import (
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
from backend.projects.talks import DEFAULT_REPORT_UNIT, REPORT_UNITS
from workers.align.podcasts.salience import SalienceConfig
from workers.align.podcasts.time_windows import WindowConfig

LANGUAGE_CODE = r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$"


class ProjectSettingsSerializer(serializers.Serializer):
    """The project settings Tandem reads; any other key is refused by name, so a typo never
    passes silently and nothing stored can make a later read fail."""

    trusted_confidence = serializers.FloatField(
        min_value=0.0,
        max_value=1.0,
        required=False,
        help_text="An automatic pair counts as trusted in the corpus dashboard from this "
        f"confidence on ({DEFAULT_TRUSTED_CONFIDENCE} when unset).",
    )
    report_unit = serializers.ChoiceField(
        choices=REPORT_UNITS,
        required=False,
        help_text="Talk projects: one report segment per paper sentence or per section "
        f"({DEFAULT_REPORT_UNIT} when unset); read when a paper is imported.",
    )
    excluded_sections = serializers.ListField(
        child=serializers.CharField(max_length=200),
        max_length=50,
        required=False,
        help_text="Talk projects: section titles the HMM leaves out and the editor greys "
        "(Abstract, Related Work and Acknowledgments when unset; [] keeps every section).",
    )

    transcript_unit = serializers.ChoiceField(
        choices=TRANSCRIPT_UNITS,
        required=False,
        help_text="One transcript unit per reader turn, or per fixed time window cut from the "
        "words' times ('windows' for podcast projects, 'turns' otherwise, when unset); read when "
        "a transcript is imported.",
    )
    window_seconds = serializers.FloatField(
        min_value=MIN_WINDOW_SECONDS,
        max_value=MAX_WINDOW_SECONDS,
        required=False,
        help_text=f"A time window's length in seconds ({WindowConfig.seconds:g} when unset).",
    )
    clean_descriptions = serializers.BooleanField(
        required=False,
        help_text="Drop the description sentences whose IDF salience is below the podcast "
        "paper's threshold before labelling units (off when unset); the description-cleaning "
        "preview shows what it keeps and drops.",
    )
    salience_tau = serializers.FloatField(
        min_value=0.0,
        max_value=1.0,
        required=False,
        help_text="A unit is salient when its ROUGE-2 recall against some description sentence "
        f"is above this ({SalienceConfig.tau:g} when unset).",
    )
    low_confidence_below = serializers.FloatField(
        min_value=0.0,
        max_value=1.0,
        required=False,
        help_text="The editor marks a turn whose pre-alignment confidence is below this "
        f"({DEFAULT_LOW_CONFIDENCE} when unset); with a parameter set that carries a learned "
        "decision the confidence is the calibrated probability that the turn is right.",
    )
    learned_decision = serializers.BooleanField(
        required=False,
        help_text="Each tuning run fits the engine's learned decision on its gold (per-turn "
        "corrections, kept only when they beat the path on held-out gold, and a calibrated "
        f"confidence), carried into pre-alignment by the promoted set "
        f"({'on' if DEFAULT_LEARNED_DECISION else 'off'} when unset).",
    )

    license = serializers.RegexField(
        r"^[a-z0-9][a-z0-9.+-]{0,63}$",
        required=False,
        help_text="The corpus's license as the Hugging Face export's dataset card states it: a "
        "Hugging Face license id such as cc-by-4.0, cc-by-sa-4.0, apache-2.0 or other "
        "('unknown' on the card when unset).",
        error_messages={
            "invalid": "Give a Hugging Face license id in lower case, such as cc-by-4.0 or other."
        },
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    f"Unknown settings {unknown}; known: {sorted(self.fields)}."
                )
        return super().to_internal_value(data)


class ProjectOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Project.Kind.choices)
    description = serializers.CharField()
    language = serializers.CharField()
    promoted_parameter_set = serializers.IntegerField(
        source="promoted_parameter_set_id", allow_null=True
    )
    settings = ProjectSettingsSerializer()
    role = serializers.ChoiceField(
        source="caller_role", choices=Role.choices, allow_null=True, default=None
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class ProjectInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True)
    language = serializers.RegexField(
        LANGUAGE_CODE,
        max_length=16,
        required=False,
        error_messages={
            "invalid": "A language code such as 'fr', 'en' or 'en-GB'; it chooses the tokenizer."
        },
    )
    settings = ProjectSettingsSerializer(required=False)
    kind = serializers.ChoiceField(
        choices=Project.Kind.choices,
        required=False,
        help_text="Chosen once, at creation: 'meeting' (the default) pairs ASR turns with a "
        "meeting report; 'talk' pairs a talk's transcript with the paper it presents; 'podcast' "
        "pairs an episode's timed transcript, cut into time windows, with its description.",
    )


class ProjectListApi(PaginatedApi):
    """A signed-in user lists their projects; who may start one (and become its lead) is
    TANDEM_PROJECT_CREATORS's answer: everyone, or staff."""

    permission_classes = [IsAuthenticated, MayCreateProjectsOrReads]

    @extend_schema(responses=ProjectOutputSerializer(many=True))
    def get(self, request: SignedInRequest) -> Response:
        return paginated_response(
            queryset=project_list(user=request.user),
            serializer_class=ProjectOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=ProjectInputSerializer, responses={201: ProjectOutputSerializer})
    def post(self, request: SignedInRequest) -> Response:
        serializer = ProjectInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        project = project_create(creator=request.user, **serializer.validated_data)
        project = project_get(project_id=project.pk, caller=request.user)
        return Response(ProjectOutputSerializer(project).data, status=status.HTTP_201_CREATED)


class ProjectDetailApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    class UpdateInputSerializer(ProjectInputSerializer):
        name = serializers.CharField(max_length=200, required=False)
        kind = None  # type: ignore[assignment]  # chosen at creation only

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "kind" in self.initial_data:
                raise serializers.ValidationError(
                    {"kind": "A project's kind is chosen at creation and cannot change."}
                )
            return attrs

        promoted_parameter_set = IdField(allow_null=True, required=False)

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method in ("PATCH", "DELETE"):
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    def _project(self, request: SignedInRequest, project_id: int) -> Project:
        return project_get(project_id=project_id, caller=request.user)

    @extend_schema(responses=ProjectOutputSerializer)
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return Response(ProjectOutputSerializer(self._project(request, project_id)).data)

    @extend_schema(request=UpdateInputSerializer, responses=ProjectOutputSerializer)
    def patch(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = self.UpdateInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        project = project_update(
            actor=request.user,
            project=self._project(request, project_id),
            **serializer.validated_data,
        )
        return Response(ProjectOutputSerializer(project).data)

    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, project_id: int) -> Response:
        project_delete(actor=request.user, project=project_get(project_id=project_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class MembershipOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Role.choices)
    created_at = serializers.DateTimeField()


class MembershipListApi(PaginatedApi):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(required=False, max_length=150)
        user = IdField(required=False)
        role = serializers.ChoiceField(choices=Role.choices)

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=MembershipOutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
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
    def post(self, request: SignedInRequest, project_id: int) -> Response:
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
    def patch(self, request: SignedInRequest, project_id: int, membership_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = membership_update(
            actor=request.user,
            membership=membership_get(project_id=project_id, membership_id=membership_id),
            role=serializer.validated_data["role"],
        )
        return Response(MembershipOutputSerializer(membership).data)

    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, project_id: int, membership_id: int) -> Response:
        membership_delete(
            actor=request.user,
            membership=membership_get(project_id=project_id, membership_id=membership_id),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


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
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        events = audit_event_list(project_id=project_id, action=request.query_params.get("action"))
        return paginated_response(
            queryset=events, serializer_class=self.OutputSerializer, request=request, view=self
        )
