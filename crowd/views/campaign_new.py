"""``/campaigns/new/``: the "New preference campaign" button of the campaigns page.

A preference campaign belongs to a collection and is made on that collection's form
(``collections/<id>/campaigns/new/``); this page asks which collection first — or goes
straight there when the organiser can change only one (issue 31: the campaigns page had
no way to start one). Only collections the organiser may change are offered, through the
one access rule.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from catalog.forms.collections import CollectionChoiceForm
from common.roles import organiser_required


@require_GET
@organiser_required
def preference_campaign_new(request):
    form = CollectionChoiceForm(request.GET or None, user=request.user)
    choices = form.fields["collection"].queryset
    if form.is_valid():
        return redirect("crowd:preference_campaign_create", form.cleaned_data["collection"].pk)
    if not request.GET and choices.count() == 1:
        return redirect("crowd:preference_campaign_create", choices.get().pk)
    return render(
        request, "crowd/preference_campaign_new.html", {"form": form, "any": choices.exists()}
    )
