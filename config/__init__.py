"""Django project configuration for Earshot; the Celery app is loaded with Django."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
