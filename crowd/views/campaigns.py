"""Organiser pages of crowd preference campaigns: progress, workers, answers, trap
questions, examples, CSV; per-worker controls (exclude, reinstate, new browser); closing.

Lists of workers and answers are paginated (a campaign can have thousands). The
worker's pages are :mod:`crowd.views.tasks`."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog import selectors as catalog_selectors
from common.needs import Need
from common.redirects import redirect_back
from common.roles import organiser_required
from common.validation import parse_id
from crowd import exports, selectors
from crowd.forms.campaigns import (
    CampaignForm,
    ExamplesCsvForm,
    SystemPairForm,
    TrapQuestionForm,
    WorkerExcludeForm,
)
from crowd.models import PreferenceCampaign, TrapQuestion
from crowd.selectors.traps import trap_evidence
from crowd.services.campaigns import preference_campaign_new
from crowd.services.examples import examples_from_systems, examples_import_csv
from crowd.services.traps import trap_pools_fill, trap_question_contest, trap_question_mark
from crowd.services.workers import worker_browser_reset, worker_exclude, worker_reinstate

WORKERS_PER_PAGE = 50
ANSWERS_PER_PAGE = 100


def _own(request, pk: int, *, need: Need = "write") -> PreferenceCampaign:
    return selectors.campaign_for_organiser(user=request.user, campaign_id=pk, need=need)


def _can_write(request, campaign: PreferenceCampaign) -> bool:
    """Whether the page shows its controls: the one access rule, asked once per page."""
    return catalog_selectors.organises(
        user=request.user, collection=campaign.collection, need="write"
    )


@require_GET
@organiser_required
def campaign_list(request):
    campaigns = selectors.campaigns_for_organiser(user=request.user, need="read")
    return render(request, "crowd/preference_campaign_list.html", {"campaigns": campaigns})


@require_http_methods(["GET", "POST"])
@organiser_required
def campaign_create(request, collection_pk: int):
    collection = catalog_selectors.collection_for_organiser(
        user=request.user, collection_id=collection_pk
    )
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        options = {k: v for k, v in form.cleaned_data.items() if k != "name"}
        campaign, closed_because = preference_campaign_new(
            collection=collection, name=form.cleaned_data["name"], **options
        )
        if closed_because:
            messages.info(
                request,
                f"“{campaign}” was created closed: {' '.join(closed_because)} Add examples "
                "and trap questions, then open it.",
            )
        return redirect(campaign)
    return render(
        request, "crowd/preference_campaign_form.html", {"collection": collection, "form": form}
    )


def _query_without_page(request) -> str:
    """The page's query string without ``page``, ready for ``?{query}page=N``."""
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode() + "&" if query else ""


def _worker_page(request, campaign, *, status: str = "", size: int = WORKERS_PER_PAGE):
    page = Paginator(selectors.campaign_workers(campaign=campaign, status=status), size).get_page(
        request.GET.get("page")
    )
    return page, selectors.worker_rows(campaign=campaign, workers=page.object_list)


@require_GET
@organiser_required
def campaign_detail(request, pk: int):
    campaign = _own(request, pk, need="read")
    page, rows = _worker_page(request, campaign)
    context = {
        "campaign": campaign,
        "can_write": _can_write(request, campaign),
        "task_link": request.build_absolute_uri(campaign.task_link()),
        "progress": selectors.campaign_progress(campaign=campaign),
        "worker_page": page,
        "workers": rows,
        "traps": selectors.campaign_trap_questions(campaign=campaign),
        "made_quiz": selectors.campaign_made_quiz(campaign=campaign),
        "pool_needs": selectors.campaign_pool_needs(campaign=campaign),
        "judged_on": selectors.judged_scale_words(
            catalog_selectors.collection_judged_scales(collection=campaign.collection)
        ),
        "headphones": (
            selectors.campaign_headphone_rates(campaign=campaign)
            if campaign.headphone_check
            else None
        ),
        "pair_form": SystemPairForm(collection=campaign.collection),
        "csv_form": ExamplesCsvForm(),
    }
    return render(request, "crowd/preference_campaign_detail.html", context)


@require_GET
@organiser_required
def campaign_workers(request, pk: int):
    campaign = _own(request, pk, need="read")
    status = request.GET.get("status", "")
    page, rows = _worker_page(request, campaign, status=status)
    context = {
        "campaign": campaign,
        "can_write": _can_write(request, campaign),
        "worker_page": page,
        "workers": rows,
        "status": status,
        "statuses": selectors.WORKER_STATUSES,
        "query": _query_without_page(request),
    }
    return render(request, "crowd/preference_campaign_workers.html", context)


@require_GET
@organiser_required
def campaign_answers(request, pk: int):
    campaign = _own(request, pk, need="read")
    worker_id = parse_id(request.GET.get("worker", ""))
    worker = (
        selectors.campaign_worker(campaign=campaign, worker_id=worker_id)
        if worker_id is not None
        else None
    )
    fast_only = request.GET.get("fast") == "1"
    answers = selectors.campaign_answers(
        campaign=campaign, worker_id=worker.pk if worker else None, fast_only=fast_only
    )
    page = Paginator(answers, ANSWERS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "campaign": campaign,
        "page": page,
        "worker": worker,
        "fast_only": fast_only,
        "query": _query_without_page(request),
    }
    return render(request, "crowd/preference_campaign_answers.html", context)


def _back(request, campaign):
    """Where a worker control returns to: the page it was on, if it is one of ours."""
    return redirect_back(request.POST.get("next"), "crowd:preference_campaign_workers", campaign.pk)


@organiser_required
@require_POST
def worker_exclude_view(request, pk: int, worker_pk: int):
    campaign = _own(request, pk)
    worker = selectors.campaign_worker(campaign=campaign, worker_id=worker_pk)
    form = WorkerExcludeForm(request.POST)
    if form.is_valid():
        worker_exclude(worker=worker, reason=form.cleaned_data["reason"])
        messages.success(request, f"Worker {worker.platform_id} excluded; answers recomputed.")
    else:
        messages.error(request, f"Worker {worker.platform_id} not excluded: say why.")
    return _back(request, campaign)


@organiser_required
@require_POST
def worker_reinstate_view(request, pk: int, worker_pk: int):
    campaign = _own(request, pk)
    worker = selectors.campaign_worker(campaign=campaign, worker_id=worker_pk)
    try:
        worker_reinstate(worker=worker)
        messages.success(request, f"Worker {worker.platform_id} reinstated; answers recomputed.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return _back(request, campaign)


@organiser_required
@require_POST
def worker_browser_reset_view(request, pk: int, worker_pk: int):
    campaign = _own(request, pk)
    worker = selectors.campaign_worker(campaign=campaign, worker_id=worker_pk)
    worker_browser_reset(worker=worker)
    messages.success(
        request,
        f"Worker {worker.platform_id} can open the task link in a new browser; "
        "the old browser no longer works.",
    )
    return _back(request, campaign)


@require_GET
@organiser_required
def campaign_examples(request, pk: int):
    campaign = _own(request, pk, need="read")
    examples = selectors.campaign_examples(campaign=campaign)
    return render(
        request,
        "crowd/preference_campaign_examples.html",
        {"campaign": campaign, "examples": examples, "can_write": _can_write(request, campaign)},
    )


@organiser_required
@require_POST
def examples_add_from_systems(request, pk: int):
    campaign = _own(request, pk)
    form = SystemPairForm(request.POST, collection=campaign.collection)
    if form.is_valid():
        new = examples_from_systems(campaign=campaign, **form.cleaned_data)
        messages.success(request, f"{len(new)} examples added.")
    else:
        messages.error(request, " ".join(form.errors.get("__all__", ["Choose two systems."])))
    return redirect(campaign)


@organiser_required
@require_POST
def examples_add_from_csv(request, pk: int):
    campaign = _own(request, pk)
    form = ExamplesCsvForm(request.POST, request.FILES)
    if form.is_valid():
        try:  # the upload is read as a stream, a record at a time
            new = examples_import_csv(campaign=campaign, text=form.cleaned_data["file"].file)
            messages.success(request, f"{len(new)} examples imported.")
        except ValidationError as error:
            messages.error(request, f"Nothing imported: {'; '.join(error.messages)}")
    return redirect(campaign)


@require_http_methods(["GET", "POST"])
@organiser_required
def example_trap(request, pk: int, example_pk: int):
    campaign = _own(request, pk)
    example = get_object_or_404(campaign.examples, pk=example_pk)
    trap = TrapQuestion.objects.filter(example=example).first()
    initial = (
        {"accepted_answers": trap.accepted_answers, "explanation": trap.explanation,
         "pool": trap.pool}
        if trap
        else {}
    )  # fmt: skip
    form = TrapQuestionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid() and not request.POST.get("preview"):
        trap_question_mark(example=example, **form.cleaned_data)
        messages.success(request, f"Example {example.pk} is a trap question.")
        return redirect("crowd:preference_campaign_examples", campaign.pk)
    evidence = trap_evidence(example=example, list_length=campaign.list_length)
    accepted = (
        form.data.getlist("accepted_answers") if form.is_bound else initial.get("accepted_answers")
    ) or []
    context = {
        "campaign": campaign, "example": example, "form": form, "trap": trap,
        "evidence": evidence, "missed": evidence.missed_by(accepted) if accepted else None,
        "answered": sum(evidence.outcomes.values()),
    }  # fmt: skip
    return render(request, "crowd/preference_example_trap.html", context)


@organiser_required
@require_POST
def trap_contest(request, pk: int, trap_pk: int):
    campaign = _own(request, pk)
    trap = get_object_or_404(TrapQuestion, pk=trap_pk, example__campaign=campaign)
    contested = request.POST.get("contested") == "1"
    count = trap_question_contest(trap=trap, contested=contested)
    verb = "forgiven" if contested else "counted again"
    messages.success(request, f"Trap question {trap.pk} {verb}; {count} workers recomputed.")
    return redirect(campaign)


@require_POST
@organiser_required
def traps_fill(request, pk: int):
    """Fill every pool short of its need from the official judgments (``trap_pools_fill``)."""
    campaign = _own(request, pk)
    filled = trap_pools_fill(campaign=campaign)
    (messages.warning if filled.needs.problems else messages.success)(request, filled.summary)
    return redirect(campaign)


@require_GET
@organiser_required
def campaign_answers_csv(request, pk: int):
    return exports.campaign_answers_csv(campaign=_own(request, pk, need="read"))


@require_GET
@organiser_required
def campaign_approvals_csv(request, pk: int):
    """Who to approve, reject and pay a bonus (``?layout=``: ``exports.APPROVALS_LAYOUTS``)."""
    campaign = _own(request, pk, need="read")
    layout = request.GET.get("layout", "full")
    if layout not in exports.APPROVALS_LAYOUTS:
        return HttpResponseBadRequest(
            f"layout: {layout[:40]!r} is not one of {', '.join(exports.APPROVALS_LAYOUTS)}."
        )
    return exports.campaign_approvals_csv(campaign=campaign, layout=layout)
