"""Bookmarks of the admin from before issue 30 keep working.

The admin names its pages after the app (``/admin/<app>/<model>/…``). Every model that
lived in ``judging`` kept its table (``judging_<model>``), so its old pages are found by
that name: ``/admin/judging/<model>/<rest>`` is a permanent redirect to the same page
of the app the model belongs to now, query string kept (``/admin/judging/``, the index
of judging's models, to the admin's index); an unknown model is a 404.
"""

from __future__ import annotations

from django.apps import apps
from django.http import Http404, HttpResponsePermanentRedirect


def _moved() -> dict[str, str]:
    return {
        model._meta.model_name: model._meta.app_label
        for model in apps.get_models()
        if model._meta.db_table == f"judging_{model._meta.model_name}"
    }


def admin_judging_redirect(request, model: str = "", rest: str = ""):
    if not model:  # judging's index of models: the admin's index lists every app now
        return HttpResponsePermanentRedirect("/admin/")
    app = _moved().get(model)
    if app is None:
        raise Http404("No such page of the admin.")
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(
        f"/admin/{app}/{model}/{rest}" + (f"?{query}" if query else "")
    )
