from django.contrib import admin

from backend.alignments.models import Annotation, ParameterSet, PreAlignment


@admin.register(ParameterSet)
class ParameterSetAdmin(admin.ModelAdmin):
    list_display = ["name", "project", "engine_version", "created_at"]
    list_filter = ["project"]
    search_fields = ["name"]


@admin.register(PreAlignment)
class PreAlignmentAdmin(admin.ModelAdmin):
    list_display = ["document", "parameter_set", "calibration", "engine_version", "computed_at"]
    list_filter = ["calibration", "engine_version"]
    raw_id_fields = ["document", "parameter_set"]
    search_fields = ["document__name"]


@admin.register(Annotation)
class AnnotationAdmin(admin.ModelAdmin):
    list_display = ["document", "annotator", "version", "seconds_spent", "submitted_at"]
    list_filter = ["submitted_at"]
    raw_id_fields = ["document", "annotator", "pre_alignment"]
    search_fields = ["document__name", "annotator__username"]
    readonly_fields = ["version", "created_at", "updated_at"]
