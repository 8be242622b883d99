from django.apps import AppConfig


class IterationsConfig(AppConfig):
    name = "backend.iterations"
    label = "iterations"
    verbose_name = "Bootstrap iterations"
