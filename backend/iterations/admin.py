from django.contrib import admin

from backend.iterations.models import AccuracyRecord, Iteration


@admin.register(Iteration)
class IterationAdmin(admin.ModelAdmin):
    list_display = ["project", "number", "name", "status", "created_at", "closed_at"]
    list_filter = ["project"]
    search_fields = ["name", "project__name"]
    raw_id_fields = ["parameter_set", "promoted_parameter_set", "pre_align_job"]


@admin.register(AccuracyRecord)
class AccuracyRecordAdmin(admin.ModelAdmin):
    list_display = ["iteration", "document", "annotator", "human_turn_accuracy", "windowdiff"]
    list_filter = ["iteration__project"]
    raw_id_fields = ["iteration", "document", "annotation", "pre_alignment"]
