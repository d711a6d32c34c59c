"""``{{ n|counted:"collections" }}``: a number and what it counts, singular for one.

What deleting takes with it is counted by the models' plural names (the counts a
:class:`~catalog.models.TrashItem` keeps); one of them reads "1 collection", not
"1 collections" (issue 31).
"""

from functools import cache

from django import template
from django.apps import apps

register = template.Library()


@cache
def _singular() -> dict[str, str]:
    return {
        str(model._meta.verbose_name_plural): str(model._meta.verbose_name)
        for model in apps.get_models()
    }


@register.filter
def counted(n, what: str) -> str:
    """``1, "collections"`` → ``"1 collection"``; ``3, "clips"`` → ``"3 clips"``."""
    name = _singular().get(what, what) if n == 1 else what
    return f"{n:,} {name}" if isinstance(n, int) else f"{n} {name}"
