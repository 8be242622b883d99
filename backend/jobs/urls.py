from django.urls import path

from backend.jobs.apis import JobCancelApi, JobDetailApi, JobListApi

urlpatterns = [
    path("projects/<id:project_id>/jobs/", JobListApi.as_view(), name="job-list"),
    path("projects/<id:project_id>/jobs/<id:job_id>/", JobDetailApi.as_view(), name="job-detail"),
    path(
        "projects/<id:project_id>/jobs/<id:job_id>/cancel/",
        JobCancelApi.as_view(),
        name="job-cancel",
    ),
]
