from django.apps import AppConfig


class ExportsConfig(AppConfig):
    name = "backend.exports"
    label = "exports"
    verbose_name = "Corpus exports"

    def ready(self) -> None:
        from backend.exports.receivers import subscribe_receivers

        subscribe_receivers()
