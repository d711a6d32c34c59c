"""Who may hear a clip. Every audio request goes through :func:`clip_audible_by`.

Audio URLs carry an unguessable token (``Clip.audio_token``) and still check access:
a leaked URL is useless to someone without the right to the clip.
"""

from __future__ import annotations

from judging.models import Clip
from judging.roles import is_assessor
from judging.selectors import clip_in_assessor_assignments


def clip_audible_by(request, clip: Clip) -> bool:
    """The collection's owner and superusers hear every clip; assessors hear clips to judge.

    An assessor hears only the query and candidates of their own assignments.
    """
    user = request.user
    if not user.is_authenticated:
        return False
    if user.is_superuser or clip.collection.owner_id == user.pk:
        return True
    return is_assessor(user) and clip_in_assessor_assignments(user=user, clip=clip)
