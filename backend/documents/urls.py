from django.urls import path

from backend.documents.apis import (
    DocumentAudioApi,
    DocumentDetailApi,
    DocumentListApi,
    SettingsPreviewApi,
)

urlpatterns = [
    path(
        "projects/<id:project_id>/settings-preview/",
        SettingsPreviewApi.as_view(),
        name="settings-preview",
    ),
    path("projects/<id:project_id>/documents/", DocumentListApi.as_view(), name="document-list"),
    path(
        "projects/<id:project_id>/documents/<id:document_id>/",
        DocumentDetailApi.as_view(),
        name="document-detail",
    ),
    path(
        "projects/<id:project_id>/documents/<id:document_id>/audio/",
        DocumentAudioApi.as_view(),
        name="document-audio",
    ),
]
