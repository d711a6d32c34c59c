"""The organiser's pages of pairs campaigns (``pairwise:``): a new one, and its sort.

The campaign's crowd pages (task link, workers, trust, approvals, exports) are the crowd's
own (:mod:`crowd.views.campaigns`); the sort page says per query which round it is in,
how far that round is and the groups so far.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from catalog import selectors as catalog_selectors
from catalog.models import Clip
from catalog.views.collection_choice import collection_choice
from common.roles import organiser_required
from crowd.selectors.access import campaign_for_organiser
from pairwise.forms import PairsCampaignForm
from pairwise.models import PairwiseStudy
from pairwise.selectors import study_progress
from pairwise.services.create import pairwise_campaign_create


@require_GET
@organiser_required
def pairs_campaign_new(request):
    return collection_choice(
        request, then="pairwise:campaign_create", template="pairwise/campaign_new.html"
    )


@require_http_methods(["GET", "POST"])
@organiser_required
def pairs_campaign_create(request, collection_pk: int):
    collection = catalog_selectors.collection_for_organiser(
        user=request.user, collection_id=collection_pk
    )
    form = PairsCampaignForm(request.POST or None, collection=collection)
    if request.method == "POST" and form.is_valid():
        try:
            created = pairwise_campaign_create(collection=collection, **form.sort_options())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            for note in created.notes:
                messages.info(request, note)
            return redirect("pairwise:sort", created.campaign.pk)
    context = {"collection": collection, "form": form}
    return render(request, "pairwise/campaign_form.html", context)


@require_GET
@organiser_required
def pairs_sort(request, pk: int):
    campaign = campaign_for_organiser(user=request.user, campaign_id=pk, need="read")
    study = get_object_or_404(PairwiseStudy.objects.select_related("source"), campaign=campaign)
    rows = study_progress(study=study)
    ids = {int(doc) for row in rows for group in row.groups for doc in group}
    names = dict(Clip.objects.filter(pk__in=ids).values_list("pk", "external_id"))
    queries = [
        {
            "name": row.sort.query.clip.external_id,
            "progress": row.progress,
            "groups": [
                ([names.get(int(d), d) for d in group], settled)
                for group, settled in zip(row.groups, row.settled, strict=True)
            ],
        }
        for row in rows
    ]
    stuck = study.margin > campaign.answers_per_example  # the crowd settings changed since
    context = {"campaign": campaign, "study": study, "queries": queries, "stuck": stuck}
    return render(request, "pairwise/sort.html", context)
