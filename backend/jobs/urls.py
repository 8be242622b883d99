from django.urls import path

from backend.jobs.apis import JobCancelApi, JobDetailApi, JobListApi

urlpatterns = [
    path("projects/<int:project_id>/jobs/", JobListApi.as_view(), name="job-list"),
    path("projects/<int:project_id>/jobs/<int:job_id>/", JobDetailApi.as_view(), name="job-detail"),
    path(
        "projects/<int:project_id>/jobs/<int:job_id>/cancel/",
        JobCancelApi.as_view(),
        name="job-cancel",
    ),
]
