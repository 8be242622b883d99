from django.urls import path

from backend.audit.apis import AuditEventListApi

urlpatterns = [
    path(
        "projects/<id:project_id>/audit-events/",
        AuditEventListApi.as_view(),
        name="audit-event-list",
    ),
]
