"""Organiser pages of estimates from incomplete judgments (thesis ch. 7–8).

- A low-cost relevance campaign's live estimates: a page, and the same as a fragment
  (``?fragment=1``) that the campaign's page (:mod:`relevance.views.campaigns`)
  embeds and refreshes as judgments arrive, so that judging never imports this layer.
- The estimated leaderboard of a collection with incomplete judgments, beside the
  ordinary one on the results pages, labelled as estimates.

Thin, as the other pages: the access rule of :mod:`catalog.selectors.access`, then what
the last recompute stored (:mod:`evaluation.services.estimates`); nothing is computed here.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from catalog import published as catalog
from common.roles import organiser_required
from evaluation import selectors
from evaluation.views import PAIRS_PER_PAGE, page_of
from relevance import published as relevance


@organiser_required
@require_GET
def campaign_estimate(request, pk: int):
    """A low-cost campaign's estimated leaderboard, confidences and stopping rule."""
    campaign = relevance.relevance_campaign_for_organiser(
        user=request.user, campaign_id=pk, need="read"
    )
    if not campaign.is_lowcost:
        raise Http404("Only low-cost campaigns are estimated.")
    estimate = selectors.campaign_estimate_for(campaign=campaign)
    progress = relevance.campaign_pair_progress(campaign=campaign)
    context = {
        "campaign": campaign,
        "estimate": estimate,
        "payload": estimate.payload if estimate else None,
        # A campaign's page refreshes this fragment in place: all its pairs, no page links.
        "pairs": estimate.payload.get("differences", []) if estimate else [],
        "progress": progress,
        # Judgments made since the stored estimates were computed (they follow shortly).
        "behind": max(progress.judged - estimate.judged, 0) if estimate else 0,
        "recompute": selectors.lowcost_recompute(campaign=campaign),
    }
    template = "evaluation/_campaign_estimate.html"
    if request.GET.get("fragment") != "1":
        template = "evaluation/campaign_estimate.html"
    return render(request, template, context)


@organiser_required
@require_GET
def estimated_leaderboard(request, pk: int):
    """The collection's leaderboard of a measure with its unjudged pairs estimated.

    Its pairs of systems come a page at a time (``?page=N``), read from the database
    one page at a time (:class:`evaluation.selectors.EstimatedPairs`).
    """
    collection = catalog.collection_for_organiser(user=request.user, collection_id=pk, need="read")
    measure = request.GET.get("measure", "")
    if not measure:
        raise Http404("Name a measure: ?measure=…")
    board = selectors.estimated_leaderboard_for(collection=collection, measure=measure)
    context = {
        "collection": collection,
        "board": board,
        "payload": board.head,
        "pairs": page_of(request, selectors.EstimatedPairs(board), PAIRS_PER_PAGE),
        "page_query": urlencode({"measure": board.measure}) + "&",
        "ordinary": collection.leaderboards.filter(measure=board.measure).exists(),
        "recompute": selectors.collection_recompute(collection=collection),
    }
    return render(request, "evaluation/estimated_leaderboard.html", context)
