"""Files organisers download, built in one place rather than in the views.

:func:`csv_text` writes every CSV of the project (evaluation's exports use it too), so
how a cell reaches a spreadsheet is decided once; :func:`download` wraps a file in the
response that makes the browser save it. The judging side's files: a crowd campaign's
answers (columns in ``docs/crowd-answers-csv.md``) and a relevance campaign's
judgments. Qrels come from :func:`relevance.selectors.campaign_qrels`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from django.http import HttpResponse

from catalog.models.collection import BROAD_LABELS
from common.validation import SPREADSHEET_FORMULA_STARTS
from crowd.models import PreferenceCampaign
from crowd.platform_ids import exportable, submission_ids
from crowd.selectors import APPROVE, campaign_answers_for_export, campaign_approvals
from listening.selectors import answers_fully_heard
from relevance.models import RelevanceCampaign
from relevance.selectors import campaign_judgments

FORMULA_STARTS = (*SPREADSHEET_FORMULA_STARTS, "\t", "\r")
"""A cell beginning with one of these is run as a formula by Excel, LibreOffice or Google
Sheets (OWASP, "CSV Injection")."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)")


def spreadsheet_safe(value):
    """``value`` as a cell no spreadsheet runs as a formula (OWASP's advice).

    A text cell starting with ``= + - @``, a tab or a carriage return gets a leading
    apostrophe, which spreadsheets show as text and never evaluate; numbers, including
    negative ones written as text (``-0.05``), are left alone.

    >>> print(spreadsheet_safe('=HYPERLINK("http://evil","x")'), spreadsheet_safe("-0.05"))
    '=HYPERLINK("http://evil","x") -0.05
    >>> spreadsheet_safe(-0.05), spreadsheet_safe("@SUM(1)"), spreadsheet_safe("ok")
    (-0.05, "'@SUM(1)", 'ok')
    """
    formula = isinstance(value, str) and value.startswith(FORMULA_STARTS)
    return "'" + value if formula and not _NUMBER.fullmatch(value) else value


def csv_text(
    header: Sequence[str] | None, rows: Iterable[Sequence], *, lineterminator: str = "\r\n"
) -> str:
    """A CSV document: the header (none if ``None``, for pages that take bare lines), then
    one line per row (``None`` is an empty cell).

    Every cell passes :func:`spreadsheet_safe`, so an export of what workers or
    organisers typed (worker ids, comments, system names) never runs in a spreadsheet.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=lineterminator)
    if header is not None:
        writer.writerow([spreadsheet_safe(cell) for cell in header])
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return out.getvalue()


def download(content: str, *, filename: str, content_type: str) -> HttpResponse:
    """A response the browser saves as ``filename``."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


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
    clip of its task was heard (:func:`listening.selectors.answers_fully_heard`,
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
recommended for approval, one per line, as Prolific's bulk approve box takes them.
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


JUDGMENT_CSV_FIELDS = [
    "campaign", "query", "clip", "assessor", "broad", "broad_label", "fine",
    "listened_seconds", "judging_seconds", "plays", "timing_impossible", "created_at",
    "updated_at", "source",
]  # fmt: skip
"""Columns of a relevance campaign's judgments export. ``listened_seconds`` and ``plays``
are what the judging page reported, kept at most what the server observed;
``timing_impossible`` is 1 when the page reported more
(:func:`listening.services.audio_served.listening_claim_bounded`)."""


def _judgment_row(campaign: RelevanceCampaign, judgment) -> list:
    activity = getattr(judgment, "activity", None)
    return [
        campaign.pk,
        judgment.query.clip.external_id,
        judgment.clip.external_id,
        judgment.assessor.get_username() if judgment.assessor else "",
        "" if judgment.broad is None else judgment.broad,
        BROAD_LABELS.get(judgment.broad, ""),
        "" if judgment.fine is None else judgment.fine,
        round(activity.listened_seconds, 2) if activity else "",
        round(activity.judging_seconds, 2) if activity else "",
        activity.plays if activity else "",
        int(activity.timing_impossible) if activity else "",
        judgment.created_at.isoformat(),
        judgment.updated_at.isoformat(),
        judgment.source.name,
    ]


def campaign_judgments_csv(*, campaign: RelevanceCampaign) -> HttpResponse:
    """Every recorded field of every judgment of a relevance campaign, in the order made."""
    rows = (_judgment_row(campaign, j) for j in campaign_judgments(campaign=campaign))
    return download(
        csv_text(JUDGMENT_CSV_FIELDS, rows),
        filename=f"campaign-{campaign.pk}-judgments.csv",
        content_type="text/csv; charset=utf-8",
    )
