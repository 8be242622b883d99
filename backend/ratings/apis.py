"""Rating studies over HTTP. Leads create studies and read every figure; a rater (any member
with assignments in a study) reads only their own next pair, rates it and undoes their last
rating, and never sees a pair's confidence or origin."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN
from backend.projects.selectors import project_get
from backend.ratings.models import RatingStudy
from backend.ratings.selectors import (
    rater_next,
    rater_study_list,
    study_get,
    study_list,
    study_results,
)
from backend.ratings.serializers import (
    RateInputSerializer,
    RaterNextSerializer,
    RaterStudySerializer,
    StudyCreateInputSerializer,
    StudyOutputSerializer,
    StudyResultsSerializer,
)
from backend.ratings.services import rating_record, rating_study_create, rating_undo_last


class StudyListApi(PaginatedApi):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=StudyOutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return paginated_response(
            queryset=study_list(project_id=project_id, user=request.user, sees_all=True),
            serializer_class=StudyOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=StudyCreateInputSerializer, responses={201: StudyOutputSerializer})
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = StudyCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        study = rating_study_create(
            actor=request.user,
            project=project_get(project_id=project_id),
            name=data["name"],
            sample_size=data["sample_size"],
            controls=data["controls"],
            rater_ids=data["raters"],
            raters_per_pair=data["raters_per_pair"],
            target_yes_share=data["target_yes_share"],
            bin_count=data["bins"],
            seed=data.get("seed"),
        )
        study = study_get(project_id=project_id, study_id=study.pk)
        return Response(StudyOutputSerializer(study).data, status=status.HTTP_201_CREATED)


class AssignedStudyListApi(PaginatedApi):
    """The studies the caller rates in."""

    permission_classes = MEMBER_OR_ADMIN

    @extend_schema(responses=RaterStudySerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return paginated_response(
            queryset=rater_study_list(project_id=project_id, user=request.user),
            serializer_class=RaterStudySerializer,
            request=request,
            view=self,
        )


class StudyDetailApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=StudyOutputSerializer)
    def get(self, request: SignedInRequest, project_id: int, study_id: int) -> Response:
        study = study_get(project_id=project_id, study_id=study_id)
        return Response(StudyOutputSerializer(study).data)


class StudyResultsApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=StudyResultsSerializer)
    def get(self, request: SignedInRequest, project_id: int, study_id: int) -> Response:
        study = study_get(project_id=project_id, study_id=study_id)
        return Response(StudyResultsSerializer(study_results(study=study)).data)


class _RaterApi(APIView):
    permission_classes = MEMBER_OR_ADMIN

    def _study(self, request: SignedInRequest, project_id: int, study_id: int) -> RatingStudy:
        return study_get(
            project_id=project_id, study_id=study_id, user=request.user, sees_all=False
        )

    def _next(self, study: RatingStudy, request: SignedInRequest) -> Response:
        return Response(RaterNextSerializer(rater_next(study=study, rater=request.user)).data)


class RaterNextApi(_RaterApi):
    """The caller's progress and next unrated pair, in their own order: resuming is reading
    this again."""

    @extend_schema(responses=RaterNextSerializer)
    def get(self, request: SignedInRequest, project_id: int, study_id: int) -> Response:
        return self._next(self._study(request, project_id, study_id), request)


class RateApi(_RaterApi):
    @extend_schema(request=RateInputSerializer, responses=RaterNextSerializer)
    def post(self, request: SignedInRequest, project_id: int, study_id: int) -> Response:
        serializer = RateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        study = self._study(request, project_id, study_id)
        rating_record(
            rater=request.user,
            study=study,
            assignment_id=serializer.validated_data["assignment"],
            answer=serializer.validated_data["answer"],
            note=serializer.validated_data["note"],
        )
        return self._next(study, request)


class UndoApi(_RaterApi):
    @extend_schema(request=None, responses=RaterNextSerializer)
    def post(self, request: SignedInRequest, project_id: int, study_id: int) -> Response:
        study = self._study(request, project_id, study_id)
        rating_undo_last(rater=request.user, study=study)
        return self._next(study, request)
