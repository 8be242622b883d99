"""Celery tasks; each module is imported here so that `autodiscover_tasks` registers it."""

from workers.tasks import alignment, imports, tuning, vectors

__all__ = ["alignment", "imports", "tuning", "vectors"]
