"""Under ``DEBUG`` (``make run``), an address that leads nowhere shows the styled 404 page.

Django answers a 404 under ``DEBUG`` with its technical page: every URL pattern of the
project, the view that raised, the settings' name — nothing an organiser, an assessor or a
crowd worker should read (issue 31, item 10). This middleware gives them the page
:func:`common.error_pages.page_not_found` gives without ``DEBUG``.

What a developer still needs: a logged-in **superuser** (who runs ``createsuperuser``
on their own machine) keeps Django's technical page, and every replaced page writes one
line to the server's log with what Django would have said (the address nothing matched,
or the message of the ``Http404``). The API (``/api/``) keeps its JSON answers; without
``DEBUG`` nothing here runs (the project's ``handler404`` answers).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import Http404

from common.error_pages import page_not_found

logger = logging.getLogger(__name__)


def _replaced(request) -> bool:
    user = getattr(request, "user", None)
    developer = user is not None and user.is_authenticated and user.is_superuser
    return settings.DEBUG and not developer and not request.path.startswith("/api/")


class StyledNotFoundUnderDebug:
    """Placed after the authentication middleware (it reads the user) and after the common
    middleware (whose trailing-slash redirect sees the 404 first)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        matched = getattr(request, "resolver_match", None) is not None
        if response.status_code == 404 and not matched and _replaced(request):
            logger.warning("Not Found: %s matches no address (DEBUG: the styled page was shown; "
                           "a superuser sees Django's list of addresses)", request.path)  # fmt: skip
            return page_not_found(request)
        return response

    def process_exception(self, request, exception):
        """An ``Http404`` a view raised (``get_object_or_404``, "No such collection.")."""
        if isinstance(exception, Http404) and _replaced(request):
            logger.warning("Not Found: %s (DEBUG: %s)", request.path, exception)
            return page_not_found(request, exception)
        return None
