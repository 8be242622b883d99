from django.urls import path

from backend.dashboards.apis import (
    AccuracyDashboardApi,
    AgreementDashboardApi,
    AnnotatorQualityDashboardApi,
    CorpusDashboardApi,
    DocumentEffortDashboardApi,
    EffortDashboardApi,
    JobsDashboardApi,
    TuningDashboardApi,
)

DASHBOARD = "projects/<id:project_id>/dashboard/"

urlpatterns = [
    path(f"{DASHBOARD}accuracy/", AccuracyDashboardApi.as_view(), name="dashboard-accuracy"),
    path(f"{DASHBOARD}tuning/", TuningDashboardApi.as_view(), name="dashboard-tuning"),
    path(f"{DASHBOARD}effort/", EffortDashboardApi.as_view(), name="dashboard-effort"),
    path(
        f"{DASHBOARD}effort/documents/",
        DocumentEffortDashboardApi.as_view(),
        name="dashboard-effort-documents",
    ),
    path(f"{DASHBOARD}corpus/", CorpusDashboardApi.as_view(), name="dashboard-corpus"),
    path(f"{DASHBOARD}agreement/", AgreementDashboardApi.as_view(), name="dashboard-agreement"),
    path(
        f"{DASHBOARD}annotators/",
        AnnotatorQualityDashboardApi.as_view(),
        name="dashboard-annotators",
    ),
    path(f"{DASHBOARD}jobs/", JobsDashboardApi.as_view(), name="dashboard-jobs"),
]
