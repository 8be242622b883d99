from django.urls import path

from backend.iterations.apis import (
    BatchProposalApi,
    DocumentReviewApi,
    DocumentSpotCheckApi,
    IterationCancelApi,
    IterationCloseApi,
    IterationDetailApi,
    IterationDocumentsApi,
    IterationListApi,
    IterationPreAlignApi,
    IterationPromoteApi,
    IterationRecordApi,
    IterationReviewApi,
    IterationTuneApi,
)

ITERATION = "projects/<id:project_id>/iterations/<id:iteration_id>/"

urlpatterns = [
    path("projects/<id:project_id>/iterations/", IterationListApi.as_view(), name="iteration-list"),
    path(
        "projects/<id:project_id>/iterations/proposal/",
        BatchProposalApi.as_view(),
        name="iteration-proposal",
    ),
    path(ITERATION, IterationDetailApi.as_view(), name="iteration-detail"),
    path(f"{ITERATION}close/", IterationCloseApi.as_view(), name="iteration-close"),
    path(f"{ITERATION}cancel/", IterationCancelApi.as_view(), name="iteration-cancel"),
    path(f"{ITERATION}documents/", IterationDocumentsApi.as_view(), name="iteration-documents"),
    path(f"{ITERATION}pre-align/", IterationPreAlignApi.as_view(), name="iteration-pre-align"),
    path(f"{ITERATION}tune/", IterationTuneApi.as_view(), name="iteration-tune"),
    path(f"{ITERATION}promote/", IterationPromoteApi.as_view(), name="iteration-promote"),
    path(f"{ITERATION}review/", IterationReviewApi.as_view(), name="iteration-review"),
    path(
        "projects/<id:project_id>/documents/<id:document_id>/review/",
        DocumentReviewApi.as_view(),
        name="document-review",
    ),
    path(
        "projects/<id:project_id>/documents/<id:document_id>/review/spot-check/",
        DocumentSpotCheckApi.as_view(),
        name="document-spot-check",
    ),
    path(
        f"{ITERATION}documents/<id:document_id>/",
        IterationRecordApi.as_view(),
        name="iteration-record",
    ),
]
