from django.apps import AppConfig


class CurationConfig(AppConfig):
    name = "backend.curation"
    label = "curation"
    verbose_name = "Gold and adjudication"

    def ready(self) -> None:
        from backend.curation.receivers import subscribe_receivers

        subscribe_receivers()
