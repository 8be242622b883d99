from django.contrib import admin

from backend.tuning.models import TuningCandidate, TuningRun


@admin.register(TuningRun)
class TuningRunAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "stage", "settings_count", "created_at", "finished_at"]
    raw_id_fields = ["project", "job", "word_vectors", "best", "created_by"]


@admin.register(TuningCandidate)
class TuningCandidateAdmin(admin.ModelAdmin):
    list_display = ["id", "run", "index", "stage", "rank", "objective"]
    raw_id_fields = ["run"]
