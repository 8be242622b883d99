from django.contrib import admin

from backend.documents.models import Document, OriginalFile, ReportSegment, TranscriptTurn


class OriginalFileInline(admin.TabularInline):
    model = OriginalFile
    extra = 0
    readonly_fields = ["role", "position", "file", "original_name", "size", "sha256"]
    can_delete = False


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ["name", "project", "status", "iteration", "turn_count", "segment_count"]
    list_filter = ["status", "project"]
    search_fields = ["name", "source"]
    raw_id_fields = ["project", "iteration", "created_by"]
    filter_horizontal = ["assignees"]
    readonly_fields = ["segment_count", "turn_count", "word_count", "import_error"]
    inlines = [OriginalFileInline]


@admin.register(OriginalFile)
class OriginalFileAdmin(admin.ModelAdmin):
    list_display = ["original_name", "role", "position", "document", "size"]
    list_filter = ["role"]
    search_fields = ["original_name", "document__name", "sha256"]
    raw_id_fields = ["document"]


@admin.register(ReportSegment)
class ReportSegmentAdmin(admin.ModelAdmin):
    list_display = ["document", "position", "speaker", "word_count"]
    search_fields = ["text", "speaker", "document__name"]
    raw_id_fields = ["document"]


@admin.register(TranscriptTurn)
class TranscriptTurnAdmin(admin.ModelAdmin):
    list_display = ["document", "position", "speaker", "start", "end", "word_count"]
    search_fields = ["text", "speaker", "document__name"]
    raw_id_fields = ["document"]
    exclude = ["words"]
