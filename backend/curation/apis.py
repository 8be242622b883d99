"""Adjudication over HTTP, for leads, curators and administrators: which documents wait for
it, the disagreement view's payload, bulk edits with optimistic concurrency, completing and
reopening."""

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.apis import (
    EditBatchInputSerializer,
    TimedVersionInputSerializer,
    VersionInputSerializer,
)
from backend.alignments.services.annotations import AssignmentOperation
from backend.core.authentication import SignedInRequest
from backend.curation.adjudication import (
    adjudication_apply,
    adjudication_complete,
    adjudication_reopen,
)
from backend.curation.models import Adjudication
from backend.curation.selectors import (
    adjudication_dict,
    adjudication_payload_json,
    documents_needing_adjudication,
)
from backend.curation.serializers import (
    AdjudicationConflictSerializer,
    AdjudicationOutputSerializer,
    AdjudicationPayloadSerializer,
    NeedsAdjudicationOutputSerializer,
)
from backend.documents.models import Document
from backend.documents.selectors import document_get
from backend.projects.permissions import CURATOR_LEAD_OR_ADMIN

WRITE_RESPONSES = {200: AdjudicationOutputSerializer, 409: AdjudicationConflictSerializer}


class NeedsAdjudicationApi(APIView):
    """The documents whose annotators' submissions disagree and that wait for adjudication:
    the lead's documents table marks them (the documents app cannot read the gold)."""

    permission_classes = CURATOR_LEAD_OR_ADMIN

    @extend_schema(responses=NeedsAdjudicationOutputSerializer)
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        documents = documents_needing_adjudication(project_id=project_id)
        return Response(NeedsAdjudicationOutputSerializer({"documents": documents}).data)


class _AdjudicationApi(APIView):
    permission_classes = CURATOR_LEAD_OR_ADMIN

    def _document(self, request: SignedInRequest, project_id: int, document_id: int) -> Document:
        return document_get(
            project_id=project_id, document_id=document_id, user=request.user, only_assigned=False
        )

    def _answer(self, adjudication: Adjudication) -> Response:
        return Response(AdjudicationOutputSerializer(adjudication_dict(adjudication)).data)


class AdjudicationApi(_AdjudicationApi):
    """GET: the disagreement view in one request. POST: bulk edits, all or nothing."""

    InputSerializer = EditBatchInputSerializer

    @extend_schema(responses=AdjudicationPayloadSerializer)
    def get(self, request: SignedInRequest, project_id: int, document_id: int) -> HttpResponse:
        payload = adjudication_payload_json(project_id=project_id, document_id=document_id)
        return HttpResponse(payload, content_type="application/json")

    @extend_schema(
        request=InputSerializer,
        responses=WRITE_RESPONSES,
        description="`version` is the one the edits were made on: 0 before the first write. "
        "A stale version answers 409 with `current`, the adjudication as it now is.",
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        adjudication = adjudication_apply(
            curator=request.user,
            document=self._document(request, project_id, document_id),
            version=data["version"],
            operations=[AssignmentOperation(**operation) for operation in data["operations"]],
            seconds_spent=data["seconds_spent"],
        )
        return self._answer(adjudication)


class AdjudicationCompleteApi(_AdjudicationApi):
    """The adjudication becomes the document's gold."""

    InputSerializer = TimedVersionInputSerializer

    @extend_schema(
        request=InputSerializer,
        responses=WRITE_RESPONSES,
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        adjudication = adjudication_complete(
            curator=request.user,
            document=self._document(request, project_id, document_id),
            version=serializer.validated_data["version"],
            seconds_spent=serializer.validated_data["seconds_spent"],
        )
        return self._answer(adjudication)


class AdjudicationReopenApi(_AdjudicationApi):
    """Take a completed adjudication back (until the iteration closes)."""

    InputSerializer = VersionInputSerializer

    @extend_schema(
        request=InputSerializer,
        responses=WRITE_RESPONSES,
    )
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        adjudication = adjudication_reopen(
            curator=request.user,
            document=self._document(request, project_id, document_id),
            version=serializer.validated_data["version"],
        )
        return self._answer(adjudication)
