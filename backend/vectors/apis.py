from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.authentication import SignedInRequest
from backend.core.errors import InvalidInput
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.serializers import dataclass_serializer
from backend.jobs.apis import JobOutputSerializer, accepted
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get
from backend.vectors.selectors import word_vectors_get, word_vectors_list
from backend.vectors.services import vectors_delete, vectors_train_start, vectors_upload
from workers.align.scoring.vectors import TrainingSettings


class WordVectorsOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    origin = serializers.CharField(help_text="trained, uploaded, server_file or lexical.")
    file_name = serializers.CharField()
    training_key = serializers.CharField()
    settings = dataclass_serializer(TrainingSettings, required=False)(
        help_text="How trained vectors were trained; empty for uploaded and server vectors."
    )
    document_count = serializers.IntegerField()
    sentence_count = serializers.IntegerField()
    vocabulary_size = serializers.IntegerField()
    dimensions = serializers.IntegerField()
    trained_at = serializers.DateTimeField()


class WordVectorsApi(PaginatedApi):
    """The project's word vectors, newest first; POST asks for a retraining (the queued one,
    if there is one already), which keeps to the uploaded vectors while there are some."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=WordVectorsOutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        return paginated_response(
            queryset=word_vectors_list(project_id=project_id),
            serializer_class=WordVectorsOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=None, responses={202: JobOutputSerializer})
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        job = vectors_train_start(project=project_get(project_id=project_id), actor=request.user)
        return accepted(job)


class WordVectorsUploadApi(APIView):
    """Pretrained vectors for the project (word2vec text or binary, fastText .vec): its
    pre-alignments and tuning runs use them instead of vectors trained on its few texts."""

    permission_classes = LEAD_OR_ADMIN
    parser_classes = [MultiPartParser]

    class InputSerializer(serializers.Serializer):
        file = serializers.FileField(
            help_text="word2vec text or binary, or fastText .vec; at most TANDEM_MAX_VECTORS_MB."
        )

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        responses={201: WordVectorsOutputSerializer},
    )
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        upload = request.FILES.get("file")
        if upload is None:
            raise InvalidInput(
                "Send the vectors file as the multipart file field 'file'.", field="file"
            )
        stored = vectors_upload(
            actor=request.user, project=project_get(project_id=project_id), upload=upload
        )
        return Response(WordVectorsOutputSerializer(stored).data, status=status.HTTP_201_CREATED)


class WordVectorsDetailApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, project_id: int, vectors_id: int) -> Response:
        vectors = word_vectors_get(project_id=project_id, vectors_id=vectors_id)
        vectors_delete(actor=request.user, vectors=vectors)
        return Response(status=status.HTTP_204_NO_CONTENT)
