"""The headphone screen's rows (issue 23, item 2), for crowd workers and assessors alike.

A :class:`HeadphoneTrial` is one trial of one screen; its **owner** is either a crowd
:class:`~crowd.models.Worker` (whose own ``headphones`` field keeps the result,
as it always did) or an :class:`AssessorScreen`, an assessor's screen in one relevance
campaign: exactly one of the two is set, and the database checks it. The trial logic —
drawing, serving the audio once, taking answers, counting — is the same for both owners
(:mod:`listening.services.headphones`); only what a result does differs (a worker is
screened out, an assessor waits for a try the organiser grants).

Why a record per (campaign, assessor) and not a shared owner model that workers use too:
a worker's result already lives on its row, read by the crowd's plain-SQL hot path, the
workers API and the approvals; moving it would change the crowd's behaviour and its
statements for nothing an assessor needs. An assessor has no row per campaign of their
own (assignments are per query), so the screen is that row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from common.tokens import url_token


class AssessorScreen(models.Model):
    """An assessor's headphone screen in a relevance campaign (``headphone_check``).

    ``result`` is empty until a try is decided and while a new try is under way, then
    ``passed`` or ``failed``; ``right`` is the last decided try's right answers. A failed
    assessor may start another try while ``tries < tries_allowed``: two at first (one
    immediate retry: assessors are known people who may just have plugged headphones
    in), one more each time the organiser lets them try again. Passing is kept: once per
    assessor per campaign.
    """

    PASSED, FAILED = "passed", "failed"  # as a worker's headphone result (crowd.models.Worker)
    FIRST_TRIES = 2
    """A first try and one immediate retry."""

    campaign = models.ForeignKey(
        "relevance.RelevanceCampaign", on_delete=models.CASCADE, related_name="headphone_screens"
    )
    assessor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="headphone_screens"
    )
    result = models.CharField(
        max_length=6, blank=True,
        choices=[("", "not decided"), (PASSED, "passed"), (FAILED, "failed")],
    )  # fmt: skip
    right = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Trials answered right in the last decided try."
    )
    tries = models.PositiveSmallIntegerField(default=0, help_text="Tries decided.")
    tries_allowed = models.PositiveSmallIntegerField(default=FIRST_TRIES)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "judging_assessorscreen"  # the table of before issue 30
        ordering = ["campaign", "assessor"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "assessor"], name="assessor_screen_once_per_campaign"
            ),
            models.CheckConstraint(
                condition=Q(tries__lte=F("tries_allowed")), name="assessor_screen_tries_allowed"
            ),
        ]

    def __str__(self) -> str:
        return f"headphone screen of {self.assessor} in {self.campaign}"

    @property
    def may_try_again(self) -> bool:
        """Failed, with a try left (the immediate retry or one the organiser granted)."""
        return self.result == self.FAILED and self.tries < self.tries_allowed


class HeadphoneTrial(models.Model):
    """One trial of a headphone screen (:mod:`listening.headphones`): which of its three
    intervals is the quiet target (the right answer) and which the antiphase foil, drawn
    by the server and never sent; the page and the audio URL name the trial by its
    ``key`` alone. Its owner is a crowd worker or an assessor's screen, never both."""

    worker = models.ForeignKey(
        "crowd.Worker",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="headphone_trials",
    )
    screen = models.ForeignKey(
        AssessorScreen, null=True, blank=True, on_delete=models.CASCADE, related_name="trials"
    )
    position = models.PositiveSmallIntegerField(help_text="1 to 6, the order shown.")
    key = models.CharField(max_length=64, unique=True, default=url_token, editable=False)
    target = models.PositiveSmallIntegerField(help_text="The quiet interval: the right answer.")
    antiphase = models.PositiveSmallIntegerField(help_text="The interval in antiphase.")
    seed = models.BigIntegerField(help_text="Seeds the tones' phases: every trial's bytes differ.")
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When its audio was first sent: no answer before."
    )
    chosen = models.PositiveSmallIntegerField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "judging_headphonetrial"  # the table of before issue 30
        ordering = ["worker", "position"]
        constraints = [
            models.UniqueConstraint(fields=["worker", "position"], name="headphone_trial_once"),
            models.UniqueConstraint(
                fields=["screen", "position"],
                condition=Q(screen__isnull=False),
                name="headphone_trial_once_per_screen",
            ),
            models.CheckConstraint(
                condition=Q(worker__isnull=False, screen__isnull=True)
                | Q(worker__isnull=True, screen__isnull=False),
                name="headphone_trial_one_owner",
            ),
            models.CheckConstraint(
                condition=Q(target__gte=1, target__lte=3, antiphase__gte=1, antiphase__lte=3)
                & ~Q(target=F("antiphase")),
                name="headphone_trial_intervals",
            ),
            models.CheckConstraint(
                condition=Q(chosen__isnull=True) | Q(chosen__gte=1, chosen__lte=3),
                name="headphone_trial_chosen_1_3",
            ),
        ]

    def __str__(self) -> str:
        return f"headphone trial {self.position} of {self.worker or self.screen}"
