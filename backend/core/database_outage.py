"""Requests that reach for an unreachable database answer 503 with Retry-After, not 500.

A database outage (PostgreSQL restarting, a network cut, SQLite's file gone or locked past its
timeout) surfaces as Django's OperationalError or InterfaceError wherever the request first
queries: reading the session, checking a role, the view itself. It is not a defect of the
request or of the code, and it passes: clients (the editor keeps unsaved edits and sends them
again) should wait and retry, which 503 and Retry-After say. API views get the answer from the
API's exception handler (`backend/core/exception_handler.py`); every other view (the pages,
the admin) from `DatabaseOutageMiddleware`. The health check says which service is down.
"""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
"""About how long a database restart or failover takes (a broker's restart too: a 503 for an
unreachable task queue says the same)."""

UNAVAILABLE_DETAIL = (
    "The database is unreachable for the moment, so nothing was read or saved; try again in "
    f"{RETRY_AFTER_SECONDS} seconds."
)


def log_outage(request: HttpRequest, error: Exception) -> None:
    logger.error(
        "Database unreachable during %s %s: %s: %s",
        request.method,
        request.path,
        type(error).__name__,
        error,
    )


class DatabaseOutageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> JsonResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        log_outage(request, exception)
        return JsonResponse(
            {"detail": UNAVAILABLE_DETAIL},
            status=503,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
