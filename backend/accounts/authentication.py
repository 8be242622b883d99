from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from backend.accounts.keys import hash_key
from backend.accounts.models import ApiToken

if TYPE_CHECKING:  # importing it at run time would loop: DRF's settings import this module
    from drf_spectacular.openapi import AutoSchema

LAST_USED_RESOLUTION = timedelta(minutes=5)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Token <key>` (or `Bearer <key>`) with a key from /api/v1/auth/tokens/."""

    keywords = ("token", "bearer")

    def authenticate(self, request: Request) -> tuple[User, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send the token as 'Token <key>'.")
        try:
            raw_key = header[1].decode()
        except UnicodeDecodeError as error:
            raise exceptions.AuthenticationFailed("The token has invalid characters.") from error
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=hash_key(raw_key), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Unknown or revoked token.")
        self._note_use(token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token"

    @staticmethod
    def _note_use(token: ApiToken) -> None:
        """Coarse on purpose: a write on every request would serialise a busy client."""
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = ApiTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: "AutoSchema") -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`; create keys at /api/v1/auth/tokens/.",
        }
