from django.apps import AppConfig


class TuningConfig(AppConfig):
    name = "backend.tuning"
    label = "tuning"
    verbose_name = "Tuning runs"

    def ready(self) -> None:
        from backend.tuning import schema  # noqa: F401 (registers the job result's schema)
