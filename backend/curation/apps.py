from django.apps import AppConfig


class CurationConfig(AppConfig):
    name = "backend.curation"
    label = "curation"
    verbose_name = "Gold and adjudication"
