"""The lead's view of a podcast corpus's labels: the description cleaning before it is used,
and how far the ROUGE rule's labels agree with the gold. Lead (or administrator) only."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.podcasts import cleans_descriptions, salience_config
from backend.projects.selectors import project_get
from backend.salience.selectors import description_cleaning, salience_agreement, salience_summary
from backend.salience.serializers import LabelAgreementSerializer, SalienceSummarySerializer
from workers.align.podcasts.descriptions import CleaningConfig


class DescriptionCleaningApi(PaginatedApi):
    """Each description's sentences with their IDF salience and whether cleaning keeps them."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class SentenceSerializer(serializers.Serializer):
            text = serializers.CharField()
            salience = serializers.FloatField()
            kept = serializers.BooleanField()

        document_id = serializers.IntegerField()
        document_name = serializers.CharField()
        sentences = SentenceSerializer(many=True)

    @extend_schema(
        responses=OutputSerializer(many=True),
        description=f"A sentence is kept when the IDFs of its words sum to at least "
        f"{CleaningConfig.sigma:g}; only words seen {CleaningConfig.min_count} times or more "
        f"in the project's descriptions, with an IDF above {CleaningConfig.min_idf:g}, count.",
    )
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        project = project_get(project_id=project_id)
        return paginated_response(
            queryset=list(description_cleaning(project=project)),
            serializer_class=self.OutputSerializer,
            request=request,
            view=self,
        )


class SalienceDashboardApi(APIView):
    """The automatic labels' positive ratio, and their precision, recall and F1 against the
    gold labels per iteration and overall."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class IterationSerializer(serializers.Serializer):
            iteration = serializers.IntegerField(allow_null=True)
            documents = serializers.IntegerField()
            agreement = LabelAgreementSerializer()

        tau = serializers.FloatField()
        clean_descriptions = serializers.BooleanField()
        summary = SalienceSummarySerializer()
        gold_documents = serializers.IntegerField()
        overall = LabelAgreementSerializer()
        iterations = IterationSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        project = project_get(project_id=project_id)
        agreement = salience_agreement(project=project)
        return Response(
            self.OutputSerializer(
                {
                    "tau": salience_config(project).tau,
                    "clean_descriptions": cleans_descriptions(project),
                    "summary": salience_summary(project=project),
                    "gold_documents": agreement.documents,
                    "overall": agreement.overall,
                    "iterations": agreement.iterations,
                }
            ).data
        )
