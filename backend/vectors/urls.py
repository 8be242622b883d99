from django.urls import path

from backend.vectors.apis import WordVectorsApi

urlpatterns = [
    path("projects/<int:project_id>/word-vectors/", WordVectorsApi.as_view(), name="word-vectors"),
]
