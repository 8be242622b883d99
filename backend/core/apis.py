from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.help_pages import help_page_get, help_page_list, help_search
from backend.core.selectors import service_health
from backend.core.serializers import (
    HealthOutputSerializer,
    HelpIndexSerializer,
    HelpPageSerializer,
    HelpSearchInputSerializer,
    HelpSearchSerializer,
)
from backend.version import VERSION


class HealthApi(APIView):
    """Whether the database, the broker and at least one worker are reachable.

    Open to anonymous callers (load balancers, the quickstart, CI) and revealing nothing
    but reachability and the number of workers; staff also get the errors and the workers'
    names. 503 when the database is down, since then nothing works.
    """

    permission_classes = [AllowAny]

    @extend_schema(responses={200: HealthOutputSerializer, 503: HealthOutputSerializer})
    def get(self, request: Request) -> Response:
        health = service_health()
        if not request.user.is_staff:
            health = health.without_details()
        payload = {
            "status": "ok" if health.ok else "degraded",
            "version": VERSION,
            "database": asdict(health.database),
            "broker": asdict(health.broker),
            "workers": asdict(health.workers),
        }
        code = status.HTTP_200_OK if health.database.ok else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(HealthOutputSerializer(payload).data, status=code)


# The help pages (backend/core/help_pages.py) are open to anyone, signed in or not, as the
# documentation is: a person who cannot sign in needs it most.


class HelpIndexApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="help_index", responses=HelpIndexSerializer)
    def get(self, request: Request) -> Response:
        pages = [{"name": page.name, "title": page.title} for page in help_page_list()]
        return Response(HelpIndexSerializer({"pages": pages}).data)


class HelpSearchApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="help_search",
        parameters=[HelpSearchInputSerializer],
        responses=HelpSearchSerializer,
    )
    def get(self, request: Request) -> Response:
        serializer = HelpSearchInputSerializer(data=request.query_params)
        serializer.is_valid(raise_exception=True)
        query = serializer.validated_data["q"]
        results = [asdict(hit) for hit in help_search(query=query)]
        return Response(HelpSearchSerializer({"query": query, "results": results}).data)


class HelpPageApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="help_page", responses=HelpPageSerializer)
    def get(self, request: Request, name: str) -> Response:
        return Response(HelpPageSerializer(asdict(help_page_get(name=name))).data)
