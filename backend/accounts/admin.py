from django.contrib import admin
from django.http import HttpRequest

from backend.accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Read-mostly: keys are created by their owners through the API, never here."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["user", "prefix", "key_hash", "created_at", "last_used_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
