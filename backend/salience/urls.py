from django.urls import path

from backend.salience.apis import DescriptionCleaningApi, SalienceDashboardApi

PROJECT = "projects/<id:project_id>/"

urlpatterns = [
    path(
        f"{PROJECT}description-cleaning/",
        DescriptionCleaningApi.as_view(),
        name="description-cleaning",
    ),
    path(
        f"{PROJECT}dashboard/salience/", SalienceDashboardApi.as_view(), name="dashboard-salience"
    ),
]
