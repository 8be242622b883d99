from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.pagination import paginated_response
from backend.jobs.apis import JobOutputSerializer, accepted
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get
from backend.vectors.selectors import word_vectors_list
from backend.vectors.services import vectors_train_start


class WordVectorsApi(APIView):
    """The project's trained word vectors, newest first; POST asks for a retraining (the
    queued one, if there is one already)."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        training_key = serializers.CharField()
        settings = serializers.JSONField()
        document_count = serializers.IntegerField()
        sentence_count = serializers.IntegerField()
        vocabulary_size = serializers.IntegerField()
        dimensions = serializers.IntegerField()
        trained_at = serializers.DateTimeField()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        return paginated_response(
            queryset=word_vectors_list(project_id=project_id),
            serializer_class=self.OutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=None, responses={202: JobOutputSerializer})
    def post(self, request: Request, project_id: int) -> Response:
        job = vectors_train_start(project=project_get(project_id=project_id), actor=request.user)
        return accepted(job)
