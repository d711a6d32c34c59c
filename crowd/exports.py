"""Files organisers of a crowd campaign download: its answers (columns in
``docs/crowd-answers-csv.md``) and who to approve and pay (Prolific's bulk layouts too).
Written by :func:`common.csv_export.csv_text`."""

from __future__ import annotations

from django.http import HttpResponse

from common.csv_export import csv_text, download
from crowd.models import PreferenceCampaign
from crowd.platform_ids import exportable, submission_ids
from crowd.selectors import APPROVE, campaign_answers_for_export, campaign_approvals
from crowd.selectors.listening import answers_fully_heard

ANSWERS_CSV_COLUMNS = [
    "answer_id", "campaign_id", "example_id", "query", "list_a", "list_b", "system_a",
    "system_b", "worker_id", "platform", "platform_id", "worker_status", "worker_stop_reason",
    "worker_trust", "worker_trusted", "position", "is_quiz", "shown_as_a", "choice", "outcome",
    "is_trap", "trap_pool", "trap_contested", "correct", "excluded", "accepted", "served_at",
    "answered_at", "seconds", "fast", "clips_heard", "every_clip_heard", "comment",
]  # fmt: skip
"""Columns of the answers export, documented in docs/crowd-answers-csv.md."""


def _answer_row(campaign: PreferenceCampaign, a, full: set[int]) -> list:
    example, worker = a.example, a.worker
    lists = {"a": [], "b": []}
    for item in sorted(example.items.all(), key=lambda i: (i.side, i.rank)):
        lists[item.side].append(item.clip.external_id)
    trap = getattr(example, "trap", None)
    return [
        a.pk, campaign.pk, example.pk, example.query.clip.external_id,
        " ".join(lists["a"]), " ".join(lists["b"]),
        example.system_a.name if example.system_a else "",
        example.system_b.name if example.system_b else "",
        worker.pk, worker.platform, exportable(worker.platform, worker.platform_id),
        worker.status, worker.stop_reason,
        "" if worker.trust is None else f"{worker.trust:.4f}", int(worker.trusted),
        a.task.position, int(a.task.is_quiz), "b" if a.swapped else "a",
        a.choice, a.outcome, int(trap is not None), trap.pool if trap else "",
        int(bool(trap and trap.contested)),
        "" if a.correct is None else int(a.correct), int(a.excluded),
        int(a.accepted_at is not None), a.served_at.isoformat(), a.answered_at.isoformat(),
        f"{a.seconds:.3f}", int(a.seconds < campaign.fast_answer_seconds), a.clips_heard,
        int(a.pk in full), a.comment,
    ]  # fmt: skip


def campaign_answers_csv(*, campaign: PreferenceCampaign) -> HttpResponse:
    """Every answer of a crowd campaign, oldest first, one row each, with whether every
    clip of its task was heard (:func:`crowd.selectors.listening.answers_fully_heard`,
    the rule of the workers page and the mapping)."""
    answers = campaign_answers_for_export(campaign=campaign)
    full = answers_fully_heard(answers=answers)
    rows = (_answer_row(campaign, a, full) for a in answers)
    return download(
        csv_text(ANSWERS_CSV_COLUMNS, rows),
        filename=f"campaign-{campaign.pk}-answers.csv",
        content_type="text/csv; charset=utf-8",
    )


APPROVALS_CSV_COLUMNS = [
    "participant_id", "bonus", "recommendation", "reason", "platform", "session_id",
    "study_id", "assignment_id", "hit_id", "worker_id", "status", "completion_code",
    "answers", "work_answers", "quiz_answers", "trap_answered", "trap_correct", "trust",
    "trusted", "median_seconds", "mean_clips_heard", "listening_refusals", "arrived_at",
]  # fmt: skip
"""Columns of the approvals export. The first two are the layout of Prolific's bulk bonus
page (participant id, amount); Prolific's ``PROLIFIC_PID``/``SESSION_ID``/``STUDY_ID``
are ``participant_id``/``session_id``/``study_id``, Mechanical Turk's
``workerId``/``assignmentId``/``hitId`` are ``participant_id``/``assignment_id``/``hit_id``."""

APPROVALS_LAYOUTS = ("full", "prolific-approve", "prolific-bonus")
"""``full``: every column, with a header. ``prolific-approve``: the participant ids
recommended for approval, one per line, as Prolific's bulk approve box takes them
(screened-out participants are not in it: Prolific pays their screen-out reward itself
when they submit the screen-out code, and has no bulk box for them; the full layout's
``recommendation`` says ``screen_out``).
``prolific-bonus``: ``participant_id,amount`` per line for those with a bonus, as
Prolific's bulk bonus box takes them. Both Prolific layouts hold Prolific workers only and
have no header. A worker whose id is not a Prolific id (one who arrived before ids were
checked) is left out of them (:func:`submission_ids`)."""


def _approval_row(row) -> list:
    w, ids = row.worker, submission_ids(row.worker)
    reason = row.reason
    if not ids["participant_id"]:
        reason += f"; its platform id is not one: check worker {w.pk} by hand"
    return [
        ids["participant_id"], f"{row.bonus:.2f}", row.recommendation, reason, w.platform,
        ids["session_id"], ids["study_id"], ids["assignment_id"], ids["hit_id"], w.pk,
        w.status, row.code,
        row.answers, row.work_answers, row.quiz_answers, w.trap_answered, w.trap_correct,
        "" if w.trust is None else f"{w.trust:.4f}", int(w.trusted),
        "" if row.median_seconds is None else f"{row.median_seconds:.3f}",
        "" if row.mean_clips_heard is None else f"{row.mean_clips_heard:.2f}",
        w.listening_refusals, w.created_at.isoformat(),
    ]  # fmt: skip


def campaign_approvals_text(*, campaign: PreferenceCampaign, layout: str = "full") -> str:
    """The approvals export in ``layout`` (:data:`APPROVALS_LAYOUTS`)."""
    rows = campaign_approvals(campaign=campaign)
    prolific = [r for r in rows if r.worker.platform == "prolific"]
    ids = {r.worker.pk: submission_ids(r.worker)["participant_id"] for r in prolific}
    if layout == "prolific-approve":
        approved = [[ids[r.worker.pk]] for r in prolific if r.recommendation == APPROVE]
        return csv_text(None, [line for line in approved if line[0]])
    if layout == "prolific-bonus":
        paid = [[ids[r.worker.pk], f"{r.bonus:.2f}"] for r in prolific if r.bonus > 0]
        return csv_text(None, [line for line in paid if line[0]])
    return csv_text(APPROVALS_CSV_COLUMNS, (_approval_row(r) for r in rows))


def campaign_approvals_csv(*, campaign: PreferenceCampaign, layout: str = "full") -> HttpResponse:
    """The approvals export of a crowd campaign as a download (see :data:`APPROVALS_LAYOUTS`)."""
    suffix = "" if layout == "full" else f"-{layout}"
    return download(
        campaign_approvals_text(campaign=campaign, layout=layout),
        filename=f"campaign-{campaign.pk}-approvals{suffix}.csv",
        content_type="text/csv; charset=utf-8",
    )
