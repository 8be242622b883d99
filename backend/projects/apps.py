from django.apps import AppConfig


class ProjectsConfig(AppConfig):
    name = "backend.projects"
    label = "projects"
    verbose_name = "Projects and memberships"
