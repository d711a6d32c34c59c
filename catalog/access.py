"""Who may hear a clip through its collection-wide URL. Every such request goes through
:func:`clip_audible_by`.

Audio URLs carry an unguessable token (``Clip.audio_token``) and still check access:
a leaked URL is useless to someone without the right to the clip. Crowd workers never
use these URLs: a clip-wide URL would let them recognise a clip (a trap question) across
tasks and identities, so they hear audio only through URLs made for one task
(:func:`crowd.views.tasks.task_audio`).

The collection's organisers hear every clip; who else may is registered by the apps
that give people clips to hear (:func:`clip_listeners_register`, from their
``AppConfig.ready()``): relevance lets an assessor hear the clips of their own
assignments.
"""

from __future__ import annotations

from collections.abc import Callable

from catalog.models import Clip
from catalog.selectors import organises

LISTENERS: list[Callable[..., bool]] = []
"""Rules ``rule(user=…, clip=…) → bool`` of who else may hear a clip (registered)."""


def clip_listeners_register(rule: Callable[..., bool]) -> None:
    if rule not in LISTENERS:
        LISTENERS.append(rule)


def clip_audible_by(request, clip: Clip) -> bool:
    """The collection's owner, its co-organisers and superusers hear every clip; anyone a
    registered rule lets hear it (assessors: clips to judge) hears it too."""
    user = request.user
    if not user.is_authenticated:
        return False
    if organises(user=user, collection=clip.collection, need="read"):
        return True
    return any(rule(user=user, clip=clip) for rule in LISTENERS)
