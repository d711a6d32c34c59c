"""The one error of a write that conflicts with what is stored (the REST API's 409).

A repeated request that would store the same thing again is not a conflict: creates are
idempotent and answer with what is there. A request that would change or contradict a
stored row without saying so (another team for an existing system, other metadata for an
existing clip, another value for a judgment a source holds) raises :class:`Conflict`,
which :mod:`config.api_errors` turns into ``409 {"detail": …}``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError


class Conflict(ValidationError):
    """The request contradicts stored data; the message says what differs and what to do."""
