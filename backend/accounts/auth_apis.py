"""The browser's session: sign in, sign out, and who is signed in.

REST clients use tokens instead; these endpoints exist so that the single-page app can sign
in with a JSON request and then rely on Django's session cookie and CSRF protection.
"""

from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.models import User
from django.middleware.csrf import get_token
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.projects.permissions import may_create_projects


class SessionUserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_superuser = serializers.BooleanField()
    may_create_projects = serializers.SerializerMethodField(
        help_text="Whether this user may start a project (TANDEM_PROJECT_CREATORS)."
    )

    def get_may_create_projects(self, user: User) -> bool:
        return may_create_projects(user)


class SessionOutputSerializer(serializers.Serializer):
    authenticated = serializers.BooleanField()
    user = SessionUserSerializer(allow_null=True)
    csrf_token = serializers.CharField()


def _session_payload(request: Request) -> dict:
    user = request.user if request.user.is_authenticated else None
    return SessionOutputSerializer(
        {"authenticated": user is not None, "user": user, "csrf_token": get_token(request)}
    ).data


class SessionApi(APIView):
    permission_classes = [AllowAny]

    class SignInInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False)

    @method_decorator(ensure_csrf_cookie)
    @extend_schema(responses=SessionOutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(_session_payload(request))

    @extend_schema(request=SignInInputSerializer, responses=SessionOutputSerializer)
    def post(self, request: Request) -> Response:
        # DRF checks CSRF only for signed-in users; signing in must be protected too, or
        # another site could sign a visitor into an account of its choosing.
        SessionAuthentication().enforce_csrf(request)
        credentials = self.SignInInputSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        # Django's request, where sign-in throttling (axes) marks a refused attempt for its
        # middleware to answer 429.
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            return Response(
                {"detail": "Unknown username or wrong password."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        login(request, user)
        return Response(_session_payload(request))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)
