"""``/campaigns/new/``: the "New preference campaign" button of the campaigns page.

A preference campaign belongs to a collection and is made on that collection's form
(``collections/<id>/campaigns/new/``); this page asks which collection first — or goes
straight there when the organiser can change only one (issue 31: the campaigns page had
no way to start one). Only collections the organiser may change are offered, through the
one access rule.
"""

from __future__ import annotations

from django.views.decorators.http import require_GET

from catalog.views.collection_choice import collection_choice
from common.roles import organiser_required


@require_GET
@organiser_required
def preference_campaign_new(request):
    return collection_choice(
        request,
        then="crowd:preference_campaign_create",
        template="crowd/preference_campaign_new.html",
    )
