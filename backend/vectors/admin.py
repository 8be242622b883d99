from django.contrib import admin

from backend.vectors.models import WordVectors


@admin.register(WordVectors)
class WordVectorsAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "vocabulary_size", "sentence_count", "trained_at"]
    exclude = ["data"]
    readonly_fields = ["training_key", "settings", "trained_at"]
