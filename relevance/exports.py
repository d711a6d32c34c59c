"""The file organisers of a relevance campaign download: every judgment with how it was
made. Written by :func:`common.csv_export.csv_text`; qrels come from
:func:`relevance.selectors.campaign_qrels`."""

from __future__ import annotations

from django.http import HttpResponse

from catalog.models.collection import BROAD_LABELS
from common.csv_export import csv_text, download
from relevance.models import RelevanceCampaign
from relevance.selectors import campaign_judgments

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
