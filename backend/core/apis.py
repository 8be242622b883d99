from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.core.selectors import service_health
from backend.core.serializers import HealthOutputSerializer
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
