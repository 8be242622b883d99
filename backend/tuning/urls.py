from django.urls import path

from backend.tuning.apis import TuningRunDetailApi, TuningRunListApi

urlpatterns = [
    path(
        "projects/<id:project_id>/tuning-runs/",
        TuningRunListApi.as_view(),
        name="tuning-run-list",
    ),
    path(
        "projects/<id:project_id>/tuning-runs/<id:run_id>/",
        TuningRunDetailApi.as_view(),
        name="tuning-run-detail",
    ),
]
