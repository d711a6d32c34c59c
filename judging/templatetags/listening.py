"""``{% listening_rule %}``: the listening rules in words, where workers and assessors read them."""

from django import template
from django.conf import settings

from judging.services.crowd.listening import listening_rule as coverage_rule

register = template.Library()


@register.simple_tag
def listening_rule() -> str:
    """How the server tells that a clip was heard (:mod:`judging.services.listening`)."""
    return (
        f"A clip counts as played once {coverage_rule()} has reached your browser. Clips are "
        f"heard one at a time, so the server also waits for the listening time of every clip "
        f"your answer relies on ({settings.EARSHOT_LISTEN_SECONDS_PER_CLIP} s each for a "
        "comparison, the campaign's must-listen time each when judging) since your first clip."
    )
