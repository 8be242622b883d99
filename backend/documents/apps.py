from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "backend.documents"
    label = "documents"
    verbose_name = "Documents"
