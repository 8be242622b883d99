"""Tandem's Django project; importing it registers the Celery app so that tasks bind to it."""

from backend.celery import app as celery_app

__all__ = ("celery_app",)
