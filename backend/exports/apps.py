from django.apps import AppConfig


class ExportsConfig(AppConfig):
    name = "backend.exports"
    label = "exports"
    verbose_name = "Corpus exports"
