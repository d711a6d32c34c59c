"""Template filters of the one access rule, to show only the controls a person may use.

``{% load access %}`` then ``{% if collection|writable_by:user %}``. Hiding a control is
a courtesy: every page and API checks the rule again on the server.
"""

from django import template

from judging.selectors.access import organises

register = template.Library()


@register.filter
def writable_by(collection, user) -> bool:
    return collection is not None and organises(user=user, collection=collection, need="write")


@register.filter
def shareable_by(collection, user) -> bool:
    return collection is not None and organises(user=user, collection=collection, need="share")
