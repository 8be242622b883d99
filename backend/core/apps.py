from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "backend.core"
    label = "core"
    verbose_name = "Tandem core"

    def ready(self) -> None:
        from backend.core import lookups

        lookups.register()
