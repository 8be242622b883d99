from django.urls import path

from backend.vectors.apis import WordVectorsApi, WordVectorsDetailApi, WordVectorsUploadApi

urlpatterns = [
    path("projects/<id:project_id>/word-vectors/", WordVectorsApi.as_view(), name="word-vectors"),
    path(
        "projects/<id:project_id>/word-vectors/upload/",
        WordVectorsUploadApi.as_view(),
        name="word-vectors-upload",
    ),
    path(
        "projects/<id:project_id>/word-vectors/<id:vectors_id>/",
        WordVectorsDetailApi.as_view(),
        name="word-vectors-detail",
    ),
]
