"""Who may hear a clip. Every audio request goes through :func:`clip_audible_by`.

Audio URLs carry an unguessable token (``Clip.audio_token``) and still check access:
a leaked URL is useless to someone without the right to the clip.
"""

from __future__ import annotations

from judging.models import Clip
from judging.roles import is_assessor
from judging.selectors import clip_in_assessor_assignments, organises
from judging.worker_session import clip_served_to_worker


def clip_audible_by(request, clip: Clip) -> bool:
    """The collection's owner and superusers hear every clip; assessors hear clips to judge.

    An assessor hears only the query and candidates of their own assignments; a crowd
    worker (task-link cookie) hears the clips of the examples served to them.
    """
    user = request.user
    if user.is_authenticated:
        if organises(user=user, collection=clip.collection, need="read"):
            return True
        if is_assessor(user) and clip_in_assessor_assignments(user=user, clip=clip):
            return True
    return clip_served_to_worker(request, clip)
