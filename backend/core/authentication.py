"""What a view's handler knows of who calls it.

`SignedInRequest` is the request a view behind `IsAuthenticated` (the default permission in
backend/settings.py) handles: its user is signed in, so services that record who did
something or look up the caller's memberships take a `User`, never Django's anonymous
stand-in. An annotation only: DRF builds a plain `Request`, and the permission check, run
before the handler, is what makes the narrower type true. Views open to everyone (`AllowAny`)
keep `Request`.

`Permission` is what `get_permissions` returns: an instance of a permission class or of a
composition of them (`IsAuthenticated & IsProjectLead`)."""

from typing import Any, Protocol

from django.contrib.auth.models import User
from rest_framework.request import Request
from rest_framework.views import APIView


class SignedInRequest(Request):
    user: User


class Permission(Protocol):
    def has_permission(self, request: Request, view: APIView) -> bool: ...

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool: ...
