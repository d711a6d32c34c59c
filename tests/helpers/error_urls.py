"""The project's URLs plus one that fails, for the 500 page's test (common/tests/test_error_pages.py)."""

from django.urls import path

from config.urls import *  # noqa: F403 — the same handlers and URLs
from config.urls import urlpatterns as project_urls


def boom(request):
    raise RuntimeError("a bug with internals: password=hunter2")


urlpatterns = [path("boom/", boom), *project_urls]
