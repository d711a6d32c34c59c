"""``{{ component.name|subscripts }}``: a symbol written for a terminal, as a page writes it.

The numerical core names variance components as its command line prints them, an
underscore before each subscript ("systems (σ²_s)", "residual (σ²_sh:q = σ²_e)"); a page
shows σ with a superscript 2 and a real subscript instead (issue 31: "σ²_s" in plain
text). Everything else is escaped as usual.
"""

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()

SYMBOL = re.compile(r"([α-ωΑ-Ω])²_([\w:]+)")


@register.filter
def subscripts(text: str) -> str:
    """``"systems (σ²_s)"`` → ``systems (σ<sup>2</sup><sub>s</sub>)``."""
    escaped = str(conditional_escape(text))
    return mark_safe(SYMBOL.sub(r"\1<sup>2</sup><sub>\2</sub>", escaped))
