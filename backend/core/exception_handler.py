"""Answers every failure in one shape, `{"detail": ..., **extra}`, whatever layer raised it.

Kept apart from `errors` because DRF imports authentication classes while `rest_framework.views`
is still loading; services import `errors`, so it must not import DRF's views.
"""

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from backend.core.database_outage import (
    DATABASE_ERRORS,
    RETRY_AFTER_SECONDS,
    UNAVAILABLE_DETAIL,
    log_outage,
)
from backend.core.errors import ServiceError, ServiceUnavailable


def api_exception_handler(error: Exception, context: dict) -> Response | None:
    if isinstance(error, ServiceError):
        # An unreachable broker passes like an unreachable database: say when to try again.
        headers = (
            {"Retry-After": str(RETRY_AFTER_SECONDS)}
            if isinstance(error, ServiceUnavailable)
            else None
        )
        return Response(
            {"detail": error.message, **error.extra}, status=error.status_code, headers=headers
        )
    if isinstance(error, DATABASE_ERRORS):
        log_outage(context["request"], error)
        return Response(
            {"detail": UNAVAILABLE_DETAIL},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(error, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            {
                "detail": f"The request body is larger than {limit // 1024 // 1024} MB, the "
                "limit for a request's data (files are uploaded as multipart).",
                "limit_bytes": limit,
            },
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(error, TooManyFieldsSent):
        return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(error, DjangoValidationError):
        error = exceptions.ValidationError(detail=error.messages)
    response = exception_handler(error, context)
    if response is not None:
        response.data = with_detail(response.data)
    return response


def with_detail(data: Any) -> dict[str, Any]:
    """DRF's own errors in the one shape: a validation error's `{field: [messages]}` (or a
    bare list of messages) gains a `detail` line naming its first problem; the field keys
    stay, for clients that mark the field."""
    if isinstance(data, dict) and isinstance(data.get("detail"), str):
        return data
    if isinstance(data, list):
        return {"detail": " ".join(str(message) for message in _messages(data))}
    return {**data, "detail": _first_problem(data)}


def _first_problem(errors: dict[str, Any]) -> str:
    for field, value in errors.items():
        messages = _messages(value)
        if messages:
            return messages[0] if field == "non_field_errors" else f"{field}: {messages[0]}"
    return "The request was refused."


def _messages(value: Any) -> list[str]:
    """The messages in a DRF error value (a string, a list, nested dicts of either), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [message for item in value.values() for message in _messages(item)]
    if isinstance(value, list):
        return [message for item in value for message in _messages(item)]
    return []
