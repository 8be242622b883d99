from django.urls import path

from backend.projects.apis import (
    AuditEventListApi,
    MembershipDetailApi,
    MembershipListApi,
    ProjectDetailApi,
    ProjectListApi,
)

urlpatterns = [
    path("projects/", ProjectListApi.as_view(), name="project-list"),
    path("projects/<id:project_id>/", ProjectDetailApi.as_view(), name="project-detail"),
    path(
        "projects/<id:project_id>/members/",
        MembershipListApi.as_view(),
        name="membership-list",
    ),
    path(
        "projects/<id:project_id>/members/<id:membership_id>/",
        MembershipDetailApi.as_view(),
        name="membership-detail",
    ),
    path(
        "projects/<id:project_id>/audit-events/",
        AuditEventListApi.as_view(),
        name="audit-event-list",
    ),
]
