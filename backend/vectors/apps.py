from django.apps import AppConfig


class VectorsConfig(AppConfig):
    name = "backend.vectors"
    label = "vectors"
    verbose_name = "Word vectors"
