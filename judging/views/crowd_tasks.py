"""The worker's pages of a preference campaign, reached through the task link ``/t/<token>/``.

arrive (platform ids in the query string; sets the worker cookie) → consent → task
(GET shows the current task, POST answers it) → [quiz feedback] → … → done (Prolific
redirect, MTurk form post, or the code on the page; the screen-out code for workers
stopped for low trust).

CSRF: these pages run inside Mechanical Turk's iframe, where the CSRF cookie is not
sent, so they are exempt from Django's CSRF check. Forged posts are still useless: an
answer must carry the key of the worker's own open task (unguessable, server-made) and
the consent form a token signed for the worker.

Trap questions: nothing here reads :class:`~judging.models.TrapQuestion` except the
quiz feedback after a quiz answer (the worker already knows those are trap questions).
"""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt

from judging import selectors
from judging.forms.crowd import AnswerForm, ConsentForm, TaskLinkForm
from judging.models import PreferenceCampaign, TrapQuestion, Worker
from judging.models.crowd import CHOICE_LABELS, CHOICES, choice_as_stored
from judging.services.crowd.answers import answer_submit
from judging.services.crowd.tasks import TaskError, task_serve
from judging.services.crowd.workers import worker_arrive, worker_consent
from judging.worker_session import (
    consent_token,
    consent_token_valid,
    mturk_submit_origins,
    worker_cookie_set,
    worker_from_request,
)

PROLIFIC_COMPLETE_URL = "https://app.prolific.com/submissions/complete"


def task_page(view):
    """Worker pages: framable by Mechanical Turk only, CSRF-exempt (see the module doc)."""

    @wraps(view)
    @csrf_exempt
    @xframe_options_exempt
    def wrapped(request, token, *args, **kwargs):
        campaign = get_object_or_404(PreferenceCampaign, token=token)
        response = view(request, campaign, *args, **kwargs)
        response["Content-Security-Policy"] = "frame-ancestors 'self' " + " ".join(
            mturk_submit_origins()
        )
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "same-origin"
        return response

    return wrapped


def _worker_or_403(request, campaign) -> Worker:
    worker = worker_from_request(request, campaign)
    if worker is None:
        raise PermissionDenied("Please open the study through the link on your platform.")
    return worker


@task_page
def task_arrive(request, campaign):
    form = TaskLinkForm(request.GET)
    if form.is_preview():
        shown = selectors.task_preview(campaign=campaign)
        context = {
            "campaign": campaign,
            "task": shown,
            "shown_lists": [("A", shown.list_a), ("B", shown.list_b)] if shown else [],
            "choices": CHOICES,
        }
        return render(request, "judging/task_preview.html", context)
    if not request.GET and worker_from_request(request, campaign) is not None:
        return redirect("judging:task", campaign.token)
    if not campaign.is_open:
        return render(request, "judging/task_closed.html", {"campaign": campaign}, status=410)
    if not form.is_valid():
        return HttpResponseBadRequest(" ".join(form.non_field_errors()) or "Bad task link.")
    worker = worker_arrive(campaign=campaign, arrival=form.cleaned_data["arrival"])
    response = redirect("judging:task_consent", campaign.token)
    worker_cookie_set(response, request, worker)
    return response


@task_page
def task_consent(request, campaign):
    worker = _worker_or_403(request, campaign)
    if worker.consented_at is not None:
        return redirect("judging:task", campaign.token)
    form = ConsentForm(request.POST or None, initial={"token": consent_token(worker)})
    if request.method == "POST" and form.is_valid():
        if not consent_token_valid(worker, form.cleaned_data["token"]):
            raise PermissionDenied("This consent form was not made for you.")
        worker_consent(worker=worker)
        return redirect("judging:task", campaign.token)
    return render(request, "judging/task_consent.html", {"campaign": campaign, "form": form})


@task_page
def task(request, campaign):
    worker = _worker_or_403(request, campaign)
    if worker.consented_at is None:
        return redirect("judging:task_consent", campaign.token)
    if request.method == "POST":
        form = AnswerForm(request.POST)
        if form.is_valid():
            try:
                answer = answer_submit(
                    worker=worker,
                    key=form.cleaned_data["key"],
                    choice=form.cleaned_data["choice"],
                    comment=form.cleaned_data["comment"],
                )
            except (TaskError, ValidationError):
                return redirect("judging:task_done", campaign.token)
            if answer.task.is_quiz:
                return redirect("judging:task_feedback", campaign.token, answer.task.key)
            return redirect("judging:task", campaign.token)
    else:
        form = None
    served = task_serve(worker=worker)
    if served is None:
        return redirect("judging:task_done", campaign.token)
    if form is None or form.data.get("key") != served.key:
        form = AnswerForm(initial={"key": served.key})
    shown = selectors.task_for_worker(task=served)
    context = {
        "campaign": campaign,
        "task": shown,
        "shown_lists": [("A", shown.list_a), ("B", shown.list_b)],
        "form": form,
        "quiz_total": selectors.campaign_quiz_target(campaign=campaign),
    }
    return render(request, "judging/task.html", context)


@task_page
def task_feedback(request, campaign, key: str):
    """After a quiz answer: right, or the accepted answer(s) and the explanation."""
    worker = _worker_or_403(request, campaign)
    answer = selectors.quiz_answer(worker=worker, key=key)
    if answer is None:
        raise Http404("No such quiz answer.")
    trap = TrapQuestion.objects.get(example_id=answer.example_id)
    accepted = [
        CHOICE_LABELS[choice_as_stored(a, swapped=answer.swapped)] for a in trap.accepted_answers
    ]
    context = {
        "campaign": campaign,
        "answer": answer,
        "given": CHOICE_LABELS[answer.choice],
        "accepted": accepted,
        "explanation": trap.explanation,
    }
    return render(request, "judging/task_feedback.html", context)


@task_page
def task_done(request, campaign):
    worker = _worker_or_403(request, campaign)
    worker.refresh_from_db()
    if worker.status == Worker.STOPPED:
        context = {"campaign": campaign, "worker": worker, "code": campaign.screen_out_code}
        if worker.platform == Worker.PROLIFIC:
            context["prolific_url"] = _prolific_url(campaign.screen_out_code)
        return render(request, "judging/task_screened_out.html", context)
    if worker.status == Worker.ACTIVE and worker.consented_at and task_serve(worker=worker):
        return redirect("judging:task", campaign.token)
    code = campaign.completion_code
    if worker.platform == Worker.PROLIFIC:
        return redirect(_prolific_url(code))
    context = {"campaign": campaign, "worker": worker, "code": code}
    if worker.platform == Worker.MTURK and worker.turk_submit_to:
        context["mturk_action"] = worker.turk_submit_to + "/mturk/externalSubmit"
    return render(request, "judging/task_done.html", context)


def _prolific_url(code: str) -> str:
    return f"{PROLIFIC_COMPLETE_URL}?{urlencode({'cc': code})}"
