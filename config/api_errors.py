"""The one place where the REST API turns exceptions into HTTP responses.

Services raise Django's ``ValidationError`` (bad input, named in the message); DRF's
own exceptions and ``Http404``/``PermissionDenied`` keep DRF's mapping. Views never
catch and translate on their own (HackSoft Django Styleguide, "Errors & exception
handling"). Set as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]`` in :mod:`config.settings`.

================================  ======  =========================================
exception                         status  body
================================  ======  =========================================
``Conflict`` (judging)            409     ``{"detail": "<what differs>"}``: the request
                                          contradicts stored data (a judgment source
                                          without replace, a system with another team)
django ``ValidationError``        400     ``{"detail": "<the messages, joined>"}``
DRF ``ValidationError``           400     DRF's field errors
``UploadRefused`` (judging)       413,    ``{"detail": "<why>"}``: an upload over the
                                  400     limits, or a file refused before its import
``Http404``                       404     ``{"detail": "..."}``
``PermissionDenied``              403     ``{"detail": "..."}``
================================  ======  =========================================
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.views import exception_handler

from common.conflicts import Conflict
from ingest.services.uploads import UploadRefused


class ConflictResponse(exceptions.APIException):
    status_code = 409
    default_detail = "The request conflicts with the data stored."
    default_code = "conflict"


def api_exception_handler(exc, context):
    if isinstance(exc, UploadRefused):
        status = exc.status
        exc = exceptions.APIException(exc.message)
        exc.status_code = status
    elif isinstance(exc, Conflict):
        exc = ConflictResponse(" ".join(exc.messages))
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError({"detail": " ".join(exc.messages)})
    return exception_handler(exc, context)
