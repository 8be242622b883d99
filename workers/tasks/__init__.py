"""Celery tasks; each module is imported here so that `autodiscover_tasks` registers it."""

from workers.tasks import imports

__all__ = ["imports"]
