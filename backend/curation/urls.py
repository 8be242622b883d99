from django.urls import path

from backend.curation.apis import (
    AdjudicationApi,
    AdjudicationCompleteApi,
    AdjudicationReopenApi,
    NeedsAdjudicationApi,
)

ADJUDICATION = "projects/<id:project_id>/documents/<id:document_id>/adjudication/"

urlpatterns = [
    path(
        "projects/<id:project_id>/needs-adjudication/",
        NeedsAdjudicationApi.as_view(),
        name="needs-adjudication",
    ),
    path(ADJUDICATION, AdjudicationApi.as_view(), name="adjudication"),
    path(
        f"{ADJUDICATION}complete/", AdjudicationCompleteApi.as_view(), name="adjudication-complete"
    ),
    path(f"{ADJUDICATION}reopen/", AdjudicationReopenApi.as_view(), name="adjudication-reopen"),
]
