from django.contrib import admin

from backend.iterations.models import Iteration


@admin.register(Iteration)
class IterationAdmin(admin.ModelAdmin):
    list_display = ["project", "number", "name", "status", "created_at"]
    list_filter = ["status", "project"]
    search_fields = ["name", "project__name"]
