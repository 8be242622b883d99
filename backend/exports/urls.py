from django.urls import path

from backend.exports.apis import (
    ExportCsvApi,
    ExportHuggingFaceApi,
    ExportJsonlApi,
    ExportParallelApi,
    ExportPreviewApi,
    ExportPublicMeetingsApi,
    ExportSalienceApi,
    ExportSummariesApi,
    PublicMeetingsImportApi,
)

EXPORTS = "projects/<id:project_id>/exports/"

urlpatterns = [
    path(f"{EXPORTS}preview/", ExportPreviewApi.as_view(), name="export-preview"),
    path(f"{EXPORTS}pairs.jsonl", ExportJsonlApi.as_view(), name="export-jsonl"),
    path(f"{EXPORTS}pairs.csv", ExportCsvApi.as_view(), name="export-csv"),
    path(f"{EXPORTS}summaries.jsonl", ExportSummariesApi.as_view(), name="export-summaries"),
    path(f"{EXPORTS}salience.jsonl", ExportSalienceApi.as_view(), name="export-salience"),
    path(f"{EXPORTS}parallel.zip", ExportParallelApi.as_view(), name="export-parallel"),
    path(f"{EXPORTS}huggingface.zip", ExportHuggingFaceApi.as_view(), name="export-huggingface"),
    path(
        f"{EXPORTS}public-meetings.json",
        ExportPublicMeetingsApi.as_view(),
        name="export-public-meetings",
    ),
    path(
        "projects/<id:project_id>/documents/public-meetings/",
        PublicMeetingsImportApi.as_view(),
        name="document-import-public-meetings",
    ),
]
