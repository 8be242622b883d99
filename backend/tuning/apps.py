from django.apps import AppConfig


class TuningConfig(AppConfig):
    name = "backend.tuning"
    label = "tuning"
    verbose_name = "Tuning runs"
