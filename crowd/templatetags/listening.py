"""``{% listening_rule %}``: the listening rules in words, where workers and assessors read them.

Each reads only its own rule (issue 31, item 9: every crowd task repeated "…5 s each for
a comparison, the campaign's must-listen time each when judging…"): a worker's task page
gives the seconds its answer needs in all, an assessor's judging page those of a
candidate.
"""

from django import template
from django.conf import settings

from listening.selectors import coverage_in_words as coverage_rule

register = template.Library()


@register.simple_tag
def listening_rule(campaign=None) -> str:
    """How the server tells that a clip was heard (:mod:`listening.services.audio_served`):
    for a crowd ``campaign`` (a preference campaign) the seconds an answer needs, for a
    relevance campaign (or none) those of each candidate."""
    counts = f"A clip counts as played once {coverage_rule()} has reached your browser."
    per_clip = settings.EARSHOT_LISTEN_SECONDS_PER_CLIP
    clips_per_list = getattr(campaign, "min_clips_per_list", None)
    if clips_per_list is not None:  # a worker comparing two lists
        clips = 1 + 2 * clips_per_list
        return (
            f"{counts} Clips are heard one at a time, so an answer also waits until "
            f"{clips * per_clip} seconds have passed since your first clip ({per_clip} s "
            f"for each of the {clips} clips it needs, or the whole clip when shorter)."
        )
    seconds = getattr(campaign, "must_listen_seconds", None)
    each = f"{seconds} s" if seconds else "its listening time"
    return (
        f"{counts} Clips are heard one at a time, so the time since your first clip must also "
        f"cover {each} for the candidate you score and for each one you scored before."
    )
