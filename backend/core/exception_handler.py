"""Answers every failure in one shape, `{"detail": ..., **extra}`, whatever layer raised it.

Kept apart from `errors` because DRF imports authentication classes while `rest_framework.views`
is still loading; services import `errors`, so it must not import DRF's views.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from backend.core.errors import ServiceError


def api_exception_handler(error: Exception, context: dict) -> Response | None:
    if isinstance(error, ServiceError):
        return Response({"detail": error.message, **error.extra}, status=error.status_code)
    if isinstance(error, DjangoValidationError):
        error = exceptions.ValidationError(detail={"detail": error.messages})
    return exception_handler(error, context)
