"""Requests whose address holds what no page or API reads are a 400 before any view runs.

A NUL byte (``%00``) or another control character in a URL's path or query string is
never part of a real link, and PostgreSQL refuses NUL in any text it is asked to compare
(``DataError`` — a 500 from a query such as ``/t/a%00b/`` or ``?measure=%00``), while
SQLite just finds nothing. Refusing them here, once, makes both databases answer the
same 400 to every URL, whatever view it would reach; ids are the ``<id:…>`` converter's
rule (:class:`common.validation.IdConverter`) and bodies the forms' and serializers'.
"""

from __future__ import annotations

import unicodedata

from django.http import JsonResponse

from common.error_pages import bad_request

MESSAGE = "The address holds a control character (such as %00), which no link of Earshot has."


def _has_control(text: str) -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


class RefuseControlCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.GET.lists()
        if _has_control(request.path) or any(
            _has_control(key) or any(_has_control(v) for v in values) for key, values in query
        ):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": MESSAGE}, status=400)
            return bad_request(request, detail=MESSAGE)
        return self.get_response(request)
