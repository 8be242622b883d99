from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import models

from backend.audit.models import AuditEvent


def record_event(
    *,
    actor: User | AnonymousUser | None,
    action: str,
    target: models.Model,
    project: models.Model | None = None,
    **details: Any,
) -> AuditEvent:
    """Called inside the caller's transaction, so the event exists exactly when the change does."""
    return AuditEvent.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        project_id=project.pk if project is not None else None,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        details=details,
    )
