"""``{% term "Eρ²" %}``: a word of the results pages with its explanation on hover and
focus (an ``<abbr>`` with a title) and a link to the glossary."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from evaluation.glossary import anchor, explanation

register = template.Library()


@register.simple_tag
def term(word: str, shown: str = ""):
    href = f"{reverse('evaluation:glossary')}#{anchor(word)}"
    return format_html(
        '<a class="term" href="{}"><abbr title="{}">{}</abbr></a>',
        href,
        explanation(word),
        shown or word,
    )
