from django.db.models import QuerySet

from backend.audit.models import AuditEvent


def audit_event_list(*, project_id: int, action: str | None = None) -> QuerySet[AuditEvent]:
    events = AuditEvent.objects.filter(project_id=project_id).select_related("actor")
    if action:
        events = events.filter(action__startswith=action)
    return events
