"""Pages people reach by mistake: each says what happened and what to do next.

Set as the project's handlers in :mod:`config.urls` (``handler400`` … ``handler500``)
and as ``CSRF_FAILURE_VIEW``; :func:`gone` is the 410 page of things that existed and
no longer work (a used invitation link). A worker's task link (``/t/…``) that leads
nowhere gets words for crowd workers, who have no account and no menu to go back to.
They only ever show messages written for people (never an internal one) and render
without touching the database, so they work when it is down.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404

TASK_PREFIX = "/t/"


def _message(exception) -> str:
    """The message of an ``Http404``/``PermissionDenied`` raised by Earshot's own code.

    Not a URL that matched nothing (its "message" is the resolver's search), nor
    ``get_object_or_404``'s "No Collection matches the given query."
    """
    if isinstance(exception, Http404 | PermissionDenied) and not isinstance(exception, Resolver404):
        text = exception.args[0] if exception.args else ""
        if isinstance(text, str) and "matches the given query" not in text:
            return text
    return ""


def bad_request(request, exception=None, *, detail: str = ""):
    return render(request, "errors/400.html", {"detail": detail}, status=400)


def permission_denied(request, exception=None):
    return render(request, "errors/403.html", {"detail": _message(exception)}, status=403)


def page_not_found(request, exception=None):
    if request.path.startswith(TASK_PREFIX):
        bare = request.path.rstrip("/") == TASK_PREFIX.rstrip("/")
        return render(request, "errors/404_task.html", {"bare": bare}, status=404)
    return render(request, "errors/404.html", {"detail": _message(exception)}, status=404)


def server_error(request):
    """Rendered without the request's context: nothing here may fail again."""
    return HttpResponse(loader.get_template("errors/500.html").render(), status=500)


def csrf_failure(request, reason=""):
    return render(request, "errors/403_csrf.html", status=403)


def too_many_attempts(request, *, wait: float | None) -> HttpResponse:
    """429: too many password attempts from here or for this account; say when to try again."""
    seconds = max(1, round(wait or 60))
    response = render(request, "errors/429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def gone(request, *, title: str, message: str, what_to_do: str) -> HttpResponse:
    """410: this existed and no longer works (say why and what to do)."""
    context = {"title": title, "message": message, "what_to_do": what_to_do}
    return render(request, "errors/410.html", context, status=410)
