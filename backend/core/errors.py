"""Errors services raise when a request cannot be honoured, and how the API answers them.

Services stay free of HTTP, yet each failure already knows the status it deserves;
`backend.core.exception_handler` turns it into `{"detail": ..., **extra}`.
"""

from typing import Any

from rest_framework import status


class ServiceError(Exception):
    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class InvalidInput(ServiceError):
    status_code = status.HTTP_400_BAD_REQUEST


class Forbidden(ServiceError):
    status_code = status.HTTP_403_FORBIDDEN


class NotFound(ServiceError):
    status_code = status.HTTP_404_NOT_FOUND


class Conflict(ServiceError):
    status_code = status.HTTP_409_CONFLICT


class PayloadTooLarge(ServiceError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class UnsupportedMediaType(ServiceError):
    status_code = status.HTTP_415_UNSUPPORTED_MEDIA_TYPE


class ServiceUnavailable(ServiceError):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
