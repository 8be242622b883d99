from django.contrib import admin

from backend.jobs.models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "kind",
        "status",
        "progress",
        "project",
        "document",
        "worker",
        "created_at",
    ]
    list_filter = ["status", "kind", "worker"]
    search_fields = ["celery_task_id", "error", "message"]
    raw_id_fields = ["project", "document", "created_by"]
    readonly_fields = ["celery_task_id", "worker", "created_at", "started_at", "finished_at"]
