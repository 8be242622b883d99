from django.apps import AppConfig


class SimulationConfig(AppConfig):
    name = "backend.simulation"
    label = "simulation"
    verbose_name = "Bootstrap simulation"
