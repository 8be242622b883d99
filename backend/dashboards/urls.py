from django.urls import path

from backend.dashboards.apis import (
    AccuracyDashboardApi,
    CorpusDashboardApi,
    EffortDashboardApi,
    JobsDashboardApi,
    TuningDashboardApi,
)

DASHBOARD = "projects/<int:project_id>/dashboard/"

urlpatterns = [
    path(f"{DASHBOARD}accuracy/", AccuracyDashboardApi.as_view(), name="dashboard-accuracy"),
    path(f"{DASHBOARD}tuning/", TuningDashboardApi.as_view(), name="dashboard-tuning"),
    path(f"{DASHBOARD}effort/", EffortDashboardApi.as_view(), name="dashboard-effort"),
    path(f"{DASHBOARD}corpus/", CorpusDashboardApi.as_view(), name="dashboard-corpus"),
    path(f"{DASHBOARD}jobs/", JobsDashboardApi.as_view(), name="dashboard-jobs"),
]
