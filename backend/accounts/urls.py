from django.urls import path

from backend.accounts.apis import ApiTokenDetailApi, ApiTokenListApi

urlpatterns = [
    path("tokens/", ApiTokenListApi.as_view(), name="api-token-list"),
    path("tokens/<id:token_id>/", ApiTokenDetailApi.as_view(), name="api-token-detail"),
]
