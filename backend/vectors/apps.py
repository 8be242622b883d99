from django.apps import AppConfig


class VectorsConfig(AppConfig):
    name = "backend.vectors"
    label = "vectors"
    verbose_name = "Word vectors"

    def ready(self) -> None:
        from backend.vectors.receivers import subscribe_receivers

        subscribe_receivers()
