"""Who may hear a clip through its collection-wide URL. Every such request goes through
:func:`clip_audible_by`.

Audio URLs carry an unguessable token (``Clip.audio_token``) and still check access:
a leaked URL is useless to someone without the right to the clip. Crowd workers never
use these URLs: a clip-wide URL would let them recognise a clip (a trap question) across
tasks and identities, so they hear audio only through URLs made for one task
(:func:`crowd.views.tasks.task_audio`).
"""

from __future__ import annotations

from catalog.models import Clip
from catalog.selectors import organises
from common.roles import is_assessor
from relevance.selectors import clip_in_assessor_assignments


def clip_audible_by(request, clip: Clip) -> bool:
    """The collection's owner and superusers hear every clip; assessors hear clips to judge.

    An assessor hears only the query and candidates of their own assignments (their
    judging page uses per-assignment URLs, :func:`relevance.views.assessors.assignment_audio`,
    which record what was sent).
    """
    user = request.user
    if not user.is_authenticated:
        return False
    if organises(user=user, collection=clip.collection, need="read"):
        return True
    return is_assessor(user) and clip_in_assessor_assignments(user=user, clip=clip)
