from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.accounts.selectors import api_token_list
from backend.accounts.services import api_token_create, api_token_revoke
from backend.core.authentication import SignedInRequest


class ApiTokenOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)


class ApiTokenListApi(APIView):
    """The caller's own tokens; nobody, not even a superuser, lists someone else's here."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)

    class CreatedOutputSerializer(ApiTokenOutputSerializer):
        key = serializers.CharField(help_text="Shown once: store it now.")

    @extend_schema(responses=ApiTokenOutputSerializer(many=True))
    def get(self, request: SignedInRequest) -> Response:
        tokens = api_token_list(user=request.user)
        return Response(ApiTokenOutputSerializer(tokens, many=True).data)

    @extend_schema(request=InputSerializer, responses={201: CreatedOutputSerializer})
    def post(self, request: SignedInRequest) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, raw_key = api_token_create(user=request.user, **serializer.validated_data)
        created = {**ApiTokenOutputSerializer(token).data, "key": raw_key}
        return Response(self.CreatedOutputSerializer(created).data, status=status.HTTP_201_CREATED)


class ApiTokenDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request: SignedInRequest, token_id: int) -> Response:
        api_token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
