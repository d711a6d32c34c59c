"""Organiser pages for relevance campaigns: create, follow progress and agreement, export;
and an expert-ranking campaign's New page and campaign page (issue 32)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from catalog import selectors as catalog_selectors
from common.csv_export import download
from common.needs import Need
from common.roles import organiser_required
from listening.headphones import TRIALS
from relevance import exports, selectors
from relevance.forms.campaigns import QrelsForm, RelevanceCampaignForm
from relevance.forms.rankings import RankingCampaignForm
from relevance.models import RelevanceCampaign
from relevance.selectors_rankings import campaign_rankers, campaign_rankings_by_query
from relevance.services.campaigns import relevance_campaign_create


def _own_campaign(request, pk: int, *, need: Need = "write") -> RelevanceCampaign:
    return selectors.relevance_campaign_for_organiser(user=request.user, campaign_id=pk, need=need)


def _can_write(request, campaign: RelevanceCampaign) -> bool:
    return catalog_selectors.organises(
        user=request.user, collection=campaign.collection, need="write"
    )


def _new_form(request, form_class):
    """A New page's form; its collection chosen when the page was opened from one."""
    return form_class(
        request.POST or None,
        user=request.user,
        initial={"collection": request.GET.get("collection")},
    )


@require_GET
@organiser_required
def relevance_campaign_list(request):
    campaigns = selectors.relevance_campaigns_for_organiser(user=request.user, need="read")
    return render(request, "relevance/relevance_campaign_list.html", {"campaigns": campaigns})


@require_http_methods(["GET", "POST"])
@organiser_required
def relevance_campaign_new(request):
    form = _new_form(request, RelevanceCampaignForm)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        campaign = relevance_campaign_create(
            collection=data["collection"],
            name=data["name"],
            cutoff=data["cutoff"],
            exclude_same_artist=data["exclude_same_artist"],
            assessors_per_query=data["assessors_per_query"],
            queries_per_assessor=data["queries_per_assessor"],
            must_listen_seconds=data["must_listen_seconds"],
            take_back_minutes=data["take_back_minutes"],
            headphone_check=data["headphone_check"],
            headphone_pass_mark=data["headphone_pass_mark"],
            assessors=data["assessors"],
            mode=data["mode"],
            lowcost_measure=data["lowcost_measure"],
            lowcost_target=data["lowcost_target"],
            lowcost_stop_at=data["lowcost_stop_at"],
        )
        return redirect(campaign)
    return render(request, "relevance/relevance_campaign_new.html", {"form": form})


@require_GET
@organiser_required
def relevance_campaign_detail(request, pk: int):
    campaign = _own_campaign(request, pk, need="read")
    if campaign.is_ranking:
        return _ranking_campaign_detail(request, campaign)
    context = {
        "campaign": campaign,
        "can_write": _can_write(request, campaign),
        "pairs": selectors.campaign_pair_progress(campaign=campaign)
        if campaign.is_lowcost
        else None,
        "by_query": selectors.campaign_progress_by_query(campaign=campaign),
        "by_assessor": selectors.campaign_progress_by_assessor(campaign=campaign),
        "headphones": _headphone_rates(campaign),
        "trials": TRIALS,
        "agreement": selectors.campaign_agreement(campaign=campaign),
        "qrels_form": QrelsForm(initial={"scale": "fine", "policy": "mean"}),
    }
    return render(request, "relevance/relevance_campaign_detail.html", context)


@require_http_methods(["GET", "POST"])
@organiser_required
def ranking_campaign_new(request):
    """An expert-ranking campaign (issue 32): its own New page, the rest is a relevance
    campaign's (settings, assessors, open and closed)."""
    form = _new_form(request, RankingCampaignForm)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            campaign = relevance_campaign_create(
                mode=RelevanceCampaign.RANKING,
                **{name: data[name] for name in RankingCampaignForm.Meta.fields},
                queries=data["queries"],
                groups_source=data["groups_source"],
                groups_status=data["groups_status"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(campaign)
    return render(request, "relevance/ranking_campaign_new.html", {"form": form})


def _ranking_campaign_detail(request, campaign: RelevanceCampaign):
    """The organiser's page of an expert-ranking campaign: rankings, groups, agreement."""
    context = {
        "campaign": campaign,
        "can_write": _can_write(request, campaign),
        "by_query": campaign_rankings_by_query(campaign=campaign),
        "rankers": campaign_rankers(campaign=campaign),
    }
    return render(request, "relevance/ranking_campaign_detail.html", context)


def _headphone_rates(campaign: RelevanceCampaign):
    """The headphone check's pass rate, when the campaign asks for it or once did."""
    screens, rates = selectors.campaign_headphone_screens(campaign=campaign)
    return rates if campaign.headphone_check or screens else None


@require_GET
@organiser_required
def relevance_campaign_qrels(request, pk: int):
    campaign = _own_campaign(request, pk, need="read")
    form = QrelsForm(request.GET)
    if not form.is_valid():
        return HttpResponse(
            "Choose scale=broad|fine and policy=mean|median|first|latest.\n",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    scale, policy = form.cleaned_data["scale"], form.cleaned_data["policy"]
    return download(
        selectors.campaign_qrels(campaign=campaign, scale=scale, policy=policy),
        filename=f"campaign-{campaign.pk}-{scale}-{policy}.qrels",
        content_type="text/plain; charset=utf-8",
    )


@require_GET
@organiser_required
def relevance_campaign_csv(request, pk: int):
    return exports.campaign_judgments_csv(campaign=_own_campaign(request, pk, need="read"))
