"""``{{ trap.accepted_answers|choice_labels }}``: stored answers in the words workers read."""

from django import template

from crowd.models import CHOICE_LABELS

register = template.Library()


@register.filter
def choice_labels(choices) -> str:
    """``["a_better", "both_good"]`` → ``"A is better, Both are good"``."""
    return ", ".join(CHOICE_LABELS.get(choice, choice) for choice in choices or ())
