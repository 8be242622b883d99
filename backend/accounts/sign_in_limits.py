"""Sign-in throttling (django-axes): after too many failed sign-ins for one username, or from
one address, further attempts get 429 with Retry-After until the cool-off has passed. Failures
are counted in the database, so every web process and machine shares the count; the browser's
sign-in (`POST /api/v1/auth/session/`) and the admin's login are both covered."""

import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def client_address(request: HttpRequest) -> str | None:
    """The caller's address: behind the TLS proxy (DJANGO_BEHIND_TLS_PROXY), the last
    X-Forwarded-For entry, the one the proxy itself appended; else the socket's peer."""
    if settings.BEHIND_TLS_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return request.META.get("REMOTE_ADDR")


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """429 with Retry-After: each refused attempt restarts the cool-off, so waiting that long
    is exactly what lets the next attempt through."""
    seconds = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = math.ceil(seconds / 60)
    message = (
        f"Too many failed sign-ins for this account or from this address: try again in "
        f"{minutes} minute{'s' if minutes != 1 else ''}."
    )
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "retry_after": seconds}, status=429)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(seconds)
    return response
