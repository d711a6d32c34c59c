"""The worker's pages of a preference campaign, reached through the task link ``/t/<token>/``.

arrive (platform ids in the query string; binds the worker to this browser's cookie)
→ consent → [the headphone screen, if the campaign asks: :mod:`crowd.views.headphones`]
→ [practice tasks, if the campaign has them, each followed by its feedback: issue 23]
→ task (GET shows the current task, POST answers it; its audio comes from
URLs made for that task; while it is open the page beats ``alive``) → [quiz feedback]
→ … → end (no more tasks) → done. A practice task is a task like any other on this
page, said to be practice; its answer counts nowhere
(:mod:`crowd.services.practice`).

**End** is one page, the same for every worker with nothing more to do — whether they
ran out of work or were stopped at a trust checkpoint (issue 22: no oracle) — with a
button to finish (done) and one to look for more tasks.

Done is earned: the completion code (a Prolific page that shows it, with a copy
button, then redirects; Mechanical Turk's submit form; or the code on the page) goes
only to a worker who consented, gave at least the campaign's ``min_work_answers``
answers outside the quiz (so never to one who only took the quiz, or failed it), and
has nothing left to do (the cap is reached, no example is left, or the campaign
closed). A stopped worker gets the screen-out page (its code; on Mechanical Turk, which
has no screen-out, no code and a request to return the HIT); anyone else is sent back to
their task. Each end page a worker is shown is recorded
(:func:`~crowd.services.workers.worker_end_shown`): the approvals follow it (issue 31).

CSRF: these pages run inside Mechanical Turk's iframe, where the CSRF cookie is not
sent, so they are exempt from Django's CSRF check. Forged posts are still useless: an
answer must carry the key of the worker's own open task (unguessable, server-made) and
the consent form a token signed for the worker; both need the worker's browser cookie.

Trap questions: nothing here reads :class:`~crowd.models.TrapQuestion` except the
feedback after a quiz or practice answer (:func:`crowd.selectors.answer_feedback`;
those pools are not secret: workers learn from them).
Pages, sizes, statements and redirects are the same for a trap question and any other
task (``crowd/tests/test_trap_secrecy.py``).
"""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from crowd import selectors
from crowd.forms.campaigns import AnswerForm, ConsentForm, TaskLinkForm
from crowd.models import COMMENT_MAX_LENGTH, PreferenceCampaign, Worker
from crowd.services.answers import ListenFirst, answer_submit
from crowd.services.listening import task_heard
from crowd.services.tasks import (
    TASK_HEARTBEAT_SECONDS,
    TaskError,
    task_alive,
    task_is_live,
    task_serve,
)
from crowd.services.workers import (
    ArrivalRefused,
    worker_arrive,
    worker_consent,
    worker_end_shown,
)
from crowd.worker_session import (
    consent_token,
    consent_token_valid,
    device_of,
    mturk_submit_origins,
    worker_cookie_set,
    worker_from_request,
)
from listening.audio_delivery import counted_audio_response

PROLIFIC_COMPLETE_URL = "https://app.prolific.com/submissions/complete"
PROLIFIC_REDIRECT_SECONDS = 10
"""How long a Prolific finisher sees their completion code before the redirect."""


def task_page(view):
    """Worker pages: framable by Mechanical Turk only, CSRF-exempt (see the module doc)."""

    @wraps(view)
    @csrf_exempt
    @xframe_options_exempt
    def wrapped(request, token, *args, **kwargs):
        # The browser's worker and their campaign in one statement; the campaign alone
        # when the browser has none (issue 14: statements per request).
        worker = worker_from_request(request, token)
        campaign = (
            worker.campaign
            if worker is not None
            else PreferenceCampaign.objects.filter(token=token).first()
        )
        if campaign is None:  # the styled page even under DEBUG (no technical 404 here)
            return task_link_unknown(request)
        response = view(request, campaign, worker, *args, **kwargs)
        response["Content-Security-Policy"] = "frame-ancestors 'self' " + " ".join(
            mturk_submit_origins()
        )
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "same-origin"
        return response

    return wrapped


def worker_or_403(worker: Worker | None) -> Worker:
    if worker is None:
        raise PermissionDenied("Please open the study through the link on your platform.")
    return worker


REFUSALS = {
    ArrivalRefused.OTHER_BROWSER: (
        "You already started this study in another browser",
        "Please go on in the browser where you started. If you can no longer use it, "
        "contact the researcher through your platform and give them your id: they can "
        "let you continue here.",
    ),
    ArrivalRefused.BROWSER_STOPPED: (
        "This browser has already taken part in this study",
        "Someone already took part in this study from this browser, under another id, and "
        "the study ended for them; it cannot start again here under a new id. If that was "
        "you, open the study from that id's own link on your platform: the end page shows "
        "your code again, if the study gave you one. If you are a different person "
        "sharing this computer, please take part from your own device, or contact the "
        "researcher through your platform and give them your id.",
    ),
    ArrivalRefused.OTHER_ID: (
        "This browser is already taking part in this study under another id",
        "This browser is working on this study for another participant id, and that "
        "session goes on: please finish it first. If the study link you opened is yours "
        "and this is a shared computer, use another browser profile, or contact the "
        "researcher through your platform.",
    ),
    ArrivalRefused.TOO_MANY_IDS: (
        "Too many new participants from your network",
        "Too many people have started this study from your network in the last hour. "
        "Please try again in an hour, or contact the researcher through your platform.",
    ),
    ArrivalRefused.STOPPED: (
        "This study has ended for this id",
        "The study already ended for this id, in the browser where it was started; it "
        "cannot be started again here. Your code was shown there: if you lost it, "
        "contact the researcher through your platform.",
    ),
}


@task_page
def task_arrive(request, campaign, browser_worker):
    form = TaskLinkForm(request.GET)
    if form.is_preview():
        shown = selectors.task_preview(campaign=campaign)
        context = {
            "campaign": campaign,
            "task": shown,
            "shown_lists": [("A", shown.list_a), ("B", shown.list_b)] if shown else [],
            "choices": campaign.answer_choices(),
        }
        return render(request, "crowd/task_preview.html", context)
    if not request.GET and browser_worker is not None:
        return redirect("crowd:task", campaign.token)
    if not form.is_valid():
        context = {"campaign": campaign, "heading": form.heading(),
                   "text": " ".join(form.non_field_errors()), "back": True}  # fmt: skip
        return render(request, "crowd/task_refused.html", context, status=400)
    arrival = form.cleaned_data["arrival"]
    known = browser_worker is not None and (
        browser_worker.platform,
        browser_worker.platform_id,
    ) == (arrival.platform, arrival.platform_id)
    if not campaign.is_open and not known:
        context = {"campaign": campaign, "platform": arrival.platform}
        return render(request, "crowd/task_closed.html", context, status=410)
    try:
        worker = worker_arrive(
            campaign=campaign,
            arrival=arrival,
            browser_worker=browser_worker,
            device=device_of(request),
        )
    except ArrivalRefused as refused:
        heading, text = REFUSALS[refused.reason]
        # No code on these pages, whoever's: the id that arrived is not the one this
        # browser took part under (a code shown here would pay a throwaway id).
        context = {
            "campaign": campaign,
            "heading": heading,
            "text": text,
            "platform": arrival.platform,
        }
        status = 429 if refused.reason == ArrivalRefused.TOO_MANY_IDS else 409
        return render(request, "crowd/task_refused.html", context, status=status)
    response = redirect("crowd:task_consent", campaign.token)
    worker_cookie_set(response, request, worker)
    return response


@task_page
def task_consent(request, campaign, worker):
    worker = worker_or_403(worker)
    if worker.consented_at is not None:
        return redirect("crowd:task", campaign.token)
    if not selectors.campaign_room(campaign=campaign):  # told before anything is asked
        return study_full(request, campaign, worker)
    if request.method == "POST" and request.POST.get("decline"):
        # Prolific's convention: someone who does not consent gets a code of their own
        code = campaign.no_consent_code
        worker_end_shown(worker=worker, page=Worker.NO_CONSENT)
        context = {"campaign": campaign, "code": code, "platform": worker.platform}
        if worker.platform == Worker.PROLIFIC:
            context["prolific_url"] = _prolific_url(code)
        return render(request, "crowd/task_declined.html", context)
    form = ConsentForm(request.POST or None, initial={"token": consent_token(worker)})
    if request.method == "POST" and form.is_valid():
        if not consent_token_valid(worker, form.cleaned_data["token"]):
            raise PermissionDenied("This consent form was not made for you.")
        worker_consent(worker=worker)
        if worker.headphones_pending():
            return redirect("crowd:task_headphones", campaign.token)
        return redirect("crowd:task", campaign.token)
    return render(request, "crowd/task_consent.html", {"campaign": campaign, "form": form})


@task_page
def task(request, campaign, worker):
    worker = worker_or_403(worker)
    if worker.consented_at is None:
        return redirect("crowd:task_consent", campaign.token)
    if worker.headphones_pending() and worker.status == Worker.ACTIVE:  # no statement when off
        return redirect("crowd:task_headphones", campaign.token)
    form, refusal = None, ""
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
            except ListenFirst as error:
                refusal = " ".join(error.messages)
            except (TaskError, ValidationError):
                return redirect("crowd:task_end", campaign.token)
            else:
                if answer.task.is_quiz or answer.task.is_practice:
                    return redirect("crowd:task_feedback", campaign.token, answer.task.key)
                return redirect("crowd:task", campaign.token)
    if worker.served_count == 0 and not selectors.campaign_room(campaign=campaign):
        return study_full(request, campaign, worker)  # before the quiz, never after it
    served = task_serve(worker=worker, campaign_open=campaign.is_open)
    if served is None:
        return redirect("crowd:task_end", campaign.token)
    told = Worker.objects.filter(pk=worker.pk, reinstated_unseen=True)
    reinstated = worker.reinstated_unseen and told.update(reinstated_unseen=False) > 0  # once
    if form is not None and form.data.get("key") != served.key:
        form, refusal = None, ""  # it answered another task: this one is shown as new
    shown = selectors.task_for_worker(task=served)
    # The radios, the comment and the audio URLs are written out in the template, not
    # rendered by a form's widgets and {% url %} tags, and a new task makes no form: that
    # was most of the page's time (issue 14). What a refused answer carried is shown again.
    typed = form.data if form is not None else {}
    audio_url = reverse("crowd:task_audio", args=(campaign.token, served.key, "query"))
    context = {
        "campaign": campaign,
        "task": shown,
        "shown_lists": [("A", shown.list_a), ("B", shown.list_b)],
        "choice_label": campaign.question,
        "choice_error": form is not None and "choice" in form.errors,
        "answer_choices": [
            (v, label, v == typed.get("choice")) for v, label in campaign.answer_choices()
        ],
        "comment_label": AnswerForm.base_fields["comment"].label,
        "comment": typed.get("comment", ""),
        "comment_max_length": COMMENT_MAX_LENGTH,
        "audio_base": audio_url.removesuffix("query"),
        "alive_url": reverse("crowd:task_alive", args=(campaign.token, served.key)),
        "heard_url": reverse("crowd:task_heard", args=(campaign.token, served.key)),
        "alive_seconds": TASK_HEARTBEAT_SECONDS,
        "refusal": refusal,
        "reinstated": reinstated,
        "quiz_total": selectors.campaign_quiz_target(campaign=campaign),
        # Practice tasks come first and count nowhere: the others are numbered after them.
        "number": served.position - (0 if served.is_practice else worker.practice_count),
        "practice_total": (
            max(served.position, selectors.campaign_practice_target(campaign=campaign))
            if served.is_practice
            else 0
        ),
    }
    return render(request, "crowd/task.html", context, status=400 if refusal else 200)


@require_GET
@task_page
def task_audio(request, campaign, worker, key: str, slot: str):
    """The audio of one clip of the worker's own task, by its place on the page.

    Made for one task and one worker: another worker, a task already answered (or
    expired in a closed campaign) or an unknown place is a 404. Every response records
    the bytes that reached the worker, as they reach them
    (:func:`listening.audio_delivery.counted_audio_response`), the evidence the listening
    check reads.
    """
    served = selectors.worker_task(worker=worker, key=key) if worker else None
    clip = selectors.task_clip(task=served, slot=slot) if served is not None else None
    # The campaign was read at the start of this request: as fresh as asking again.
    if clip is None or not clip.audio or not task_is_live(served, campaign_open=campaign.is_open):
        raise Http404("No such audio.")
    return counted_audio_response(request, clip=clip, task=served)


@require_POST
@task_page
def task_alive_view(request, campaign, worker, key: str):
    """The task page's heartbeat: its task is still on screen, its lease starts again.

    204, or 404 for a task that is not the browser's worker's open task."""
    if worker is None or not task_alive(worker=worker, key=key):
        raise Http404("No such open task.")
    return HttpResponse(status=204)


@require_GET
@task_page
def task_heard_view(request, campaign, worker, key: str):
    """The task page asks, after a clip plays, what the server counts as heard (JSON)."""
    task = selectors.worker_task(worker=worker, key=key) if worker is not None else None
    if task is None or task.answered_at is not None:
        raise Http404("No such open task.")
    return JsonResponse(task_heard(task=task, campaign=campaign, now=timezone.now()))


@require_GET
@task_page
def task_end(request, campaign, worker):
    """No more tasks: the same page for every worker (see the module doc)."""
    worker_or_403(worker)
    return render(request, "crowd/task_end.html", {"campaign": campaign})


@task_page
def task_feedback(request, campaign, worker, key: str):
    """After a quiz answer (right, or the accepted answers and the explanation) or a
    practice answer (the expected answer and why, in every case)."""
    worker = worker_or_403(worker)
    feedback = selectors.answer_feedback(worker=worker, key=key)
    if feedback is None:
        raise Http404("No such quiz or practice answer.")
    context = {"campaign": campaign, "feedback": feedback}
    return render(request, "crowd/task_feedback.html", context)


@task_page
def task_done(request, campaign, worker):
    """The end, if it is earned (see the module doc); otherwise back to the task."""
    worker = worker_or_403(worker)
    worker.refresh_from_db()
    if worker.status == Worker.STOPPED:
        # Mechanical Turk has no screen-out: its worker is asked to return the HIT, and
        # shown no code (there is nowhere to submit one).
        worker_end_shown(worker=worker, page=Worker.SCREEN_OUT)
        context = {
            "campaign": campaign,
            "worker": worker,
            "code": "" if worker.platform == Worker.MTURK else campaign.screen_out_code,
            "headphones": worker.stop_reason == Worker.HEADPHONES,
        }
        if worker.platform == Worker.PROLIFIC:
            context["prolific_url"] = _prolific_url(campaign.screen_out_code)
        return render(request, "crowd/task_screened_out.html", context)
    if worker.consented_at is None:
        return redirect("crowd:task_consent", campaign.token)
    if worker.headphones_pending():  # before a task is served and its slot taken
        return redirect("crowd:task_headphones", campaign.token)
    if worker.served_count == 0 and not selectors.campaign_room(campaign=campaign):
        return study_full(request, campaign, worker)
    if task_serve(worker=worker) is not None:
        return redirect("crowd:task", campaign.token)
    worker.refresh_from_db()
    if worker.status == Worker.STOPPED:  # stopped while serving (a late recompute)
        return redirect("crowd:task_done", campaign.token)
    if worker.answer_count == 0:  # nothing was left to do before they did anything
        campaign.refresh_from_db(fields=["is_open"])
        return render(request, "crowd/task_nothing_to_do.html", {"campaign": campaign})
    work_answers = selectors.worker_work_answers(worker=worker)
    if not campaign.completion_earned(work_answers):  # e.g. the quiz alone, then nothing left
        campaign.refresh_from_db(fields=["is_open"])
        context = {"campaign": campaign, "work_answers": work_answers, "too_few": True}
        return render(request, "crowd/task_nothing_to_do.html", context)
    code = worker.completion_code_shown()
    worker_end_shown(worker=worker, page=Worker.COMPLETION)
    context = {"campaign": campaign, "worker": worker, "code": code}
    if worker.platform == Worker.PROLIFIC:
        context["prolific_url"] = _prolific_url(code)
        context["redirect_seconds"] = PROLIFIC_REDIRECT_SECONDS
    elif worker.platform == Worker.MTURK and worker.turk_submit_to:
        context["mturk_action"] = worker.turk_submit_to + "/mturk/externalSubmit"
    return render(request, "crowd/task_done.html", context)


def study_full(request, campaign, worker):
    """No room for a worker who has not started (issue 29): every example already has
    the answers it needs, or no quiz is left to give. Said before consent and before the
    quiz, never after it (a worker who passed the quiz is owed the work the code needs:
    :func:`~crowd.services.tasks.task_serve`). Nothing was done, so there is no
    code to give: the page says how to return the study on the worker's platform."""
    context = {"campaign": campaign, "full": True, "platform": worker.platform}
    return render(request, "crowd/task_nothing_to_do.html", context)


def task_link_unknown(request, rest: str = ""):
    """A task link that leads nowhere: the styled study-link page, under ``DEBUG`` too."""
    bare = request.path.rstrip("/") == "/t"
    return render(request, "errors/404_task.html", {"bare": bare}, status=404)


def _prolific_url(code: str) -> str:
    return f"{PROLIFIC_COMPLETE_URL}?{urlencode({'cc': code})}"
