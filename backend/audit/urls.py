from django.urls import path

from backend.audit.apis import AuditEventListApi

urlpatterns = [
    path(
        "projects/<int:project_id>/audit-events/",
        AuditEventListApi.as_view(),
        name="audit-event-list",
    ),
]
