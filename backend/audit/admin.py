from django.contrib import admin
from django.http import HttpRequest

from backend.audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """A trail is evidence: it can be read and searched here, not edited."""

    list_display = ["created_at", "actor", "action", "target_type", "target_id", "project"]
    list_filter = ["action", "project"]
    search_fields = ["action", "target_id", "actor__username"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuditEvent | None = None) -> bool:
        return False
