"""The one place where the REST API turns exceptions into HTTP responses.

Services raise Django's ``ValidationError`` (bad input, named in the message); DRF's
own exceptions and ``Http404``/``PermissionDenied`` keep DRF's mapping. Views never
catch and translate on their own (HackSoft Django Styleguide, "Errors & exception
handling"). Set as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]`` in :mod:`config.settings`.

================================  ======  =========================================
exception                         status  body
================================  ======  =========================================
django ``ValidationError``        400     ``{"detail": "<the messages, joined>"}``
DRF ``ValidationError``           400     DRF's field errors
``Http404``                       404     ``{"detail": "..."}``
``PermissionDenied``              403     ``{"detail": "..."}``
================================  ======  =========================================
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.views import exception_handler


def api_exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError({"detail": " ".join(exc.messages)})
    return exception_handler(exc, context)
