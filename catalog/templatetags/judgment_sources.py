"""``{% judgment_sources collection %}``: the collection's judgment sources and which count.

A self-contained control: any organiser page of a collection loads it with
``{% load judgment_sources %}`` and places it with ``{% judgment_sources collection %}``;
it reads its own data (:mod:`catalog.selectors.sources`) and posts to its own view
(:func:`catalog.views.sources.judgment_source_status`).
"""

from __future__ import annotations

from django import template

from catalog import selectors

register = template.Library()


@register.inclusion_tag("catalog/_judgment_sources.html", takes_context=True)
def judgment_sources(context, collection):
    return {
        "collection": collection,
        "sources": selectors.collection_judgment_sources_with_counts(collection=collection),
        "rule": selectors.CONSOLIDATION_RULE,
        "csrf_token": context.get("csrf_token"),
        # The page's view says whether its user may change the collection (``can_write``);
        # a read-only co-organiser sees which count but is offered no change (the view
        # refuses it anyway: it needs write access).
        "can_write": bool(context.get("can_write")),
    }
