from django.apps import AppConfig


class AlignmentsConfig(AppConfig):
    name = "backend.alignments"
    label = "alignments"
    verbose_name = "Pre-alignments and annotations"
