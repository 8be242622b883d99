from django.apps import AppConfig


class AlignmentsConfig(AppConfig):
    name = "backend.alignments"
    label = "alignments"
    verbose_name = "Pre-alignments and annotations"

    def ready(self) -> None:
        from backend.alignments.receivers import subscribe_receivers

        subscribe_receivers()
