"""Crowd preference judging (thesis §3.2): campaigns of examples, workers, traps, answers.

An **example** is a query and two ranked lists of k clips, stored as list ``a`` and
list ``b``. A **worker** arrives through the campaign's task link and is served
**tasks** (one rendered task each, with an idempotency key and the side mapping
shown); answering one creates an **answer**. Some examples are **trap questions**
(CrowdFlower's gold): their accepted answers live in :class:`TrapQuestion`, which the
worker pages never read. Trap questions come in two pools: the **quiz** pool (shown
first, with feedback: workers learn from them, so they are not secret) and the **work**
pool (mixed in without feedback, never shown in the quiz), after CrowdFlower/Appen's
quiz mode and work mode (thesis §3.2.2). A third pool, **practice**, is no trap at all:
its questions are the optional practice tasks every worker gets first, each answer
followed by the expected one (issue 23); their answers are :class:`PracticeAnswer`
rows, apart from :class:`Answer`, so nothing that reads answers counts them.

This module is long because the crowd's models belong together: their constraints,
counters and docs refer to one another (a task's slot is its example's, an answer's flags
follow its worker's status), and reading them side by side is how they are checked.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from catalog.models import Clip, Collection, Query, System
from common.tokens import url_token
from common.validation import (
    check_platform_code,
    identifier_validator,
    name_validator,
    text_validator,
)
from crowd.explanations import explanation_check, explanation_names_a_side, explanation_shown
from evaluation.core.answers import A_BETTER, B_BETTER, BOTH_BAD, BOTH_GOOD

CHOICES = [
    (A_BETTER, "A is better"),
    (B_BETTER, "B is better"),
    (BOTH_GOOD, "Both are equally good"),
    (BOTH_BAD, "Both are equally bad"),
]
"""The four answers of thesis Figure 3.1, in the order (and keys 1–4) shown to workers."""

CHOICE_LABELS = dict(CHOICES)

PAIR_CHOICES = [
    (A_BETTER, "A is more similar"),
    (B_BETTER, "B is more similar"),
    (BOTH_GOOD, "They are equally similar"),
]
"""The three answers of a pairs campaign (Urbano et al. 2010; keys 1–3), about two clips
A and B. Stored with three of the four keys above, so that sides swap the same way:
"equally similar" is ``both_good``; ``both_bad`` is no answer to a pair."""
_SWAPPED = {A_BETTER: B_BETTER, B_BETTER: A_BETTER, BOTH_GOOD: BOTH_GOOD, BOTH_BAD: BOTH_BAD}


def choice_as_stored(choice: str, *, swapped: bool) -> str:
    """Translate an answer between the sides shown and the example's stored lists.

    The translation is its own inverse, so it also turns stored answers into shown ones.
    """
    return _SWAPPED[choice] if swapped else choice


COMMENT_MAX_LENGTH = 2000
"""A worker's optional comment on an answer: at most this many characters."""


_token = url_token  # the default of tokens and keys (its name in the migrations' history)


CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1")
"""Capitals and digits without the look-alikes O/0 and I/1 (issue 31: "3Y8RYPW8OOWK" was
typed back with zeros): 32 characters."""


def _code() -> str:
    """A new completion, screen-out or no-consent code: 12 of :data:`CODE_ALPHABET`.

    Like Prolific's own codes (``C1A2B3C4``): easy to read out and type back, with no
    letter that looks like a digit, and nothing a spreadsheet would read as a formula, so
    the approvals export writes it exactly as workers saw it (a URL-safe token starts with
    ``-`` once in 64 codes). 32¹² ≈ 1.2·10¹⁸ codes. A campaign's stored codes (older ones
    may hold O, 0, I or 1) are kept as they are: workers and platforms already have them.
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))


class PreferenceCampaign(models.Model):
    """A crowd effort on one collection: workers compare two ranked lists per example, or
    (``kind`` pairs, issue 32) two clips, which the ``pairwise`` app drives."""

    LISTS, PAIRS = "lists", "pairs"
    KINDS = [(LISTS, "two ranked lists"), (PAIRS, "two clips (ordered groups)")]

    collection = models.ForeignKey(
        Collection, on_delete=models.CASCADE, related_name="preference_campaigns"
    )
    name = models.CharField(max_length=200, validators=[name_validator(200)])
    token = models.CharField(
        max_length=64, unique=True, default=_token, editable=False,
        help_text="Unguessable part of the task link /t/<token>/.",
    )  # fmt: skip
    instructions = models.TextField(
        blank=True,
        validators=[text_validator()],
        default=(
            "Listen to the query clip, then to the clips of the two lists A and B. "
            "Which list would you rather get if you were looking for music similar to "
            "the query? If neither is better, say whether both are good or both are bad."
        ),
    )
    consent_text = models.TextField(
        blank=True,
        validators=[text_validator()],
        default=(
            "This study collects your opinion on music similarity for research. We store "
            "your platform id, your answers, optional comments and how long each answer "
            "took, and a coded fingerprint of your network address and browser (not the "
            "address itself), so that one person cannot take part under several ids. No "
            "other personal data is collected. You may stop at any time."
        ),
    )
    list_length = models.PositiveSmallIntegerField(default=5, help_text="k clips per list")
    answers_per_example = models.PositiveSmallIntegerField(
        default=1, help_text="How many workers answer each example (redundancy)."
    )
    max_answers_per_worker = models.PositiveIntegerField(
        default=100, help_text="M: at most this many tasks per worker, trap questions included."
    )
    quiz_length = models.PositiveSmallIntegerField(
        default=0, help_text="Q: the first Q tasks are trap questions (quiz mode); 0 = no quiz."
    )
    trap_rate = models.FloatField(
        default=0.1, help_text="Work mode: probability that a task is a trap question."
    )
    trust_threshold = models.FloatField(default=0.7)
    min_trap_answers = models.PositiveSmallIntegerField(
        default=3, help_text="Trust is acted on only after this many trap answers."
    )
    completion_code = models.CharField(
        max_length=64, default=_code, validators=[identifier_validator(64), check_platform_code]
    )
    screen_out_code = models.CharField(
        max_length=64, default=_code, validators=[identifier_validator(64), check_platform_code]
    )
    no_consent_code = models.CharField(
        max_length=64, default=_code, validators=[identifier_validator(64), check_platform_code],
        help_text="Shown to someone who does not consent (Prolific's convention).",
    )  # fmt: skip
    minutes_estimate = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How long the study takes, as the consent page says."
    )
    pay_text = models.CharField(
        max_length=100, blank=True, validators=[name_validator(100)],
        help_text="What it pays, in the platform's words (e.g. “£1.50”).",
    )  # fmt: skip
    is_open = models.BooleanField(
        default=True,
        help_text="Closed: no new arrivals and no new tasks; a task on screen can still be "
        "answered within its lease.",
    )
    listening_check = models.BooleanField(
        default=True,
        help_text="Refuse an answer until the server has sent the audio of the query and of "
        "at least min_clips_per_list clips of each list, and min_seconds_on_task have passed "
        "since the task was shown.",
    )
    min_clips_per_list = models.PositiveSmallIntegerField(
        default=1, help_text="Listening check: clips of each list whose audio must be fetched."
    )
    min_seconds_on_task = models.PositiveSmallIntegerField(
        default=5, help_text="Listening check: seconds from showing a task to accepting its answer."
    )
    fast_answer_seconds = models.PositiveSmallIntegerField(
        default=10,
        help_text="An answer given sooner than this after its task was shown is flagged as "
        "fast; 0 flags nothing.",
    )
    stop_after_fast_answers = models.PositiveSmallIntegerField(
        default=0,
        help_text="Stop a worker once this many of their answers are fast; 0 never stops.",
    )
    imported_from = models.CharField(
        max_length=300,
        blank=True,
        help_text="The file the answers were imported from, if any (pastanswers.importers.answers).",
    )
    min_work_answers = models.PositiveSmallIntegerField(
        default=1,
        help_text="The completion code is earned only after this many answers outside the "
        "quiz: a worker who only took the quiz has done no work.",
    )
    trust_check_every = models.PositiveSmallIntegerField(
        default=10,
        help_text="Low trust and fast answers stop a worker only at the end of the quiz, "
        "after every this many work answers, and at the end: never right after the answer "
        "that caused it, so being stopped does not tell which answer was a missed trap.",
    )
    per_worker_codes = models.BooleanField(
        default=False,
        help_text="Give each worker their own completion code (Mechanical Turk and generic "
        "links; Prolific takes one code per study), listed in the approvals export.",
    )
    bonus_per_answer = models.DecimalField(
        max_digits=6, decimal_places=2, default=0,
        help_text="Recommended bonus per work answer beyond that minimum, in the "
        "study's currency (approvals export); 0 recommends none.",
    )  # fmt: skip
    headphone_check = models.BooleanField(
        default=False,
        help_text="After consent, a volume calibration and the antiphase headphone screen "
        "(Woods et al. 2017: listening.headphones); a worker below the pass mark is screened out.",
    )
    headphone_pass_mark = models.PositiveSmallIntegerField(
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(6)],
        help_text="Headphone screen: right answers out of 6 trials needed to pass.",
    )
    practice_length = models.PositiveSmallIntegerField(
        default=0,
        help_text="Practice tasks before the quiz, from the practice pool, each followed by "
        "its expected answer; they never count (not towards trust, pay or results). 0 = none.",
    )
    kind = models.CharField(
        max_length=5, choices=KINDS, default=LISTS, editable=False,
        help_text="Lists: thesis §3.2, four answers. Pairs: a query and two clips, three "
        "answers (PAIR_CHOICES); the pairwise app makes the examples round by round.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_preferencecampaign"  # the table of before issue 30
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "name"], name="campaign_name_once"),
            models.CheckConstraint(
                condition=Q(headphone_pass_mark__gte=1) & Q(headphone_pass_mark__lte=6),
                name="campaign_headphone_pass_mark_1_6",
            ),
            models.CheckConstraint(
                condition=Q(trap_rate__gte=0) & Q(trap_rate__lte=1), name="campaign_trap_rate_0_1"
            ),
            models.CheckConstraint(
                condition=Q(trust_threshold__gte=0) & Q(trust_threshold__lte=1),
                name="campaign_trust_threshold_0_1",
            ),
            models.CheckConstraint(condition=Q(list_length__gte=1), name="campaign_k_positive"),
            models.CheckConstraint(
                condition=Q(answers_per_example__gte=1), name="campaign_redundancy_positive"
            ),
            models.CheckConstraint(
                condition=~Q(completion_code=F("screen_out_code")),
                name="campaign_codes_differ",
            ),
            models.CheckConstraint(
                condition=Q(trust_check_every__gte=1), name="campaign_trust_check_positive"
            ),
            models.CheckConstraint(
                condition=Q(bonus_per_answer__gte=0), name="campaign_bonus_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("crowd:preference_campaign", args=[self.pk])

    def completion_earned(self, work_answers: int) -> bool:
        """Whether a worker with ``work_answers`` answers outside the quiz has earned the
        completion code: at least ``min_work_answers``. The one place the rule is written:
        the end page (:func:`crowd.views.tasks.task_done`, for a worker who is not
        stopped) and the approvals (:mod:`crowd.selectors.approvals`) both ask it."""
        return work_answers >= self.min_work_answers

    def task_link(self) -> str:
        return reverse("crowd:task_arrive", args=[self.token])

    @property
    def is_pairs(self) -> bool:
        return self.kind == self.PAIRS

    def answer_choices(self) -> list[tuple[str, str]]:
        """The answers a worker is offered, in the order of keys 1–4 (or 1–3 for pairs)."""
        return PAIR_CHOICES if self.is_pairs else CHOICES

    def choice_label(self, choice: str) -> str:
        """An answer in the words its workers were shown."""
        return dict(self.answer_choices()).get(choice) or CHOICE_LABELS.get(choice, choice)

    @property
    def question(self) -> str:
        """The question of the worker's page."""
        return (
            "Which clip is more similar to the query?" if self.is_pairs else "Which list is better?"
        )


class Example(models.Model):
    """A query and two ranked lists, ``a`` and ``b`` (thesis §3.2)."""

    SOURCE_SYSTEMS, SOURCE_GENERATOR, SOURCE_CSV = "systems", "generator", "csv"
    SOURCE_QUIZ, SOURCE_PAIRS = "quiz", "pairs"
    """Quiz: a quiz question made from the official judgments for one worker's quiz (issue
    29: :mod:`crowd.services.quiz`); never served as work, never shown to a second worker.
    Pairs: a (query, clip, clip) example of a pairs campaign, one clip per side."""

    campaign = models.ForeignKey(
        PreferenceCampaign, on_delete=models.CASCADE, related_name="examples"
    )
    query = models.ForeignKey(Query, on_delete=models.RESTRICT, related_name="examples")
    source = models.CharField(
        max_length=20,
        choices=[(SOURCE_SYSTEMS, "systems' lists"), (SOURCE_GENERATOR, "generator"),
                 (SOURCE_CSV, "CSV import"), (SOURCE_QUIZ, "quiz question for one worker"),
                 (SOURCE_PAIRS, "a pair of a sort's round (pairwise)")],
    )  # fmt: skip
    system_a = models.ForeignKey(
        System, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    system_b = models.ForeignKey(
        System, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signature = models.CharField(
        max_length=2000, help_text="Query and both lists' clip ids; no example is repeated."
    )
    scores = models.JSONField(
        default=dict, blank=True,
        help_text="λ of list a and list b per measure/scale when known: {name: [λa, λb]}.",
    )  # fmt: skip
    slots_taken = models.PositiveIntegerField(
        default=0, help_text="Answers not excluded plus open tasks (redundancy claims)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_example"  # the table of before issue 30
        ordering = ["campaign", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "signature"], name="example_once"),
        ]

    def __str__(self) -> str:
        return f"example {self.pk} ({self.query})"


class ExampleItem(models.Model):
    """The clip at a rank of one of an example's two lists."""

    example = models.ForeignKey(Example, on_delete=models.CASCADE, related_name="items")
    side = models.CharField(max_length=1, choices=[("a", "list a"), ("b", "list b")])
    rank = models.PositiveSmallIntegerField()
    clip = models.ForeignKey(Clip, on_delete=models.RESTRICT, related_name="+")

    class Meta:
        db_table = "judging_exampleitem"  # the table of before issue 30
        ordering = ["example", "side", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["example", "side", "rank"], name="item_rank_once"),
            models.UniqueConstraint(fields=["example", "side", "clip"], name="item_clip_once"),
            models.CheckConstraint(condition=Q(side__in=["a", "b"]), name="item_side_a_b"),
        ]

    def __str__(self) -> str:
        return f"{self.example} list {self.side} #{self.rank}: {self.clip_id}"


class TrapQuestion(models.Model):
    """Gold: an example with known accepted answers (stored-list terms) and an explanation.

    A contested ("forgiven") trap question no longer counts towards anyone's trust and
    is no longer served.
    """

    QUIZ, WORK, PRACTICE = "quiz", "work", "practice"
    POOLS = [
        (QUIZ, "quiz (shown first, with feedback)"),
        (WORK, "work (mixed in, no feedback)"),
        (PRACTICE, "practice (before the quiz, with the answer; never counts)"),
    ]
    TRAP_POOLS = (QUIZ, WORK)
    """The pools that count towards trust; practice questions are public and count nowhere."""

    example = models.OneToOneField(Example, on_delete=models.CASCADE, related_name="trap")
    accepted_answers = models.JSONField(help_text="Answers about the stored lists a and b.")
    explanation = models.TextField(
        blank=True, validators=[text_validator(), explanation_check],
        help_text="Shown to a worker who misses a quiz question or answers a practice one; "
        "{a} and {b} stand for the stored lists a and b, shown as that worker saw them.",
    )  # fmt: skip
    pool = models.CharField(
        max_length=8, choices=POOLS, default=WORK,
        help_text="Quiz and practice questions are revealed in feedback; work questions "
        "never are.",
    )  # fmt: skip
    contested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_trapquestion"  # the table of before issue 30
        constraints = [
            models.CheckConstraint(
                condition=Q(pool__in=["quiz", "work", "practice"]), name="trap_pool_known"
            ),
        ]

    def __str__(self) -> str:
        return f"trap question on {self.example}"

    def accepts(self, stored_choice: str) -> bool:
        return stored_choice in self.accepted_answers

    @property
    def explanation_as_listed(self) -> str:
        """The explanation with the lists named as the organiser's pages show them (list a
        as List A)."""
        return explanation_shown(self.explanation, swapped=False)

    @property
    def explanation_side_named(self) -> str | None:
        """The words naming a side in letters of an explanation stored before issue 31
        (shown to no worker: :func:`~crowd.explanations.explanation_shown`), else None."""
        return explanation_names_a_side(self.explanation)


class Worker(models.Model):
    """A crowd participant of one campaign, known by their platform id (no account).

    A platform id is not a credential: the worker is bound to the browser that first
    arrived with it (``browser_key``, held in that browser's signed cookie by
    :mod:`crowd.worker_session`); an organiser empties it to let the worker continue
    in another browser. A stopped worker stays stopped (``stop_reason`` says why) until
    an organiser reinstates them; ``trusted_by_organiser`` then keeps the automatic
    rules (trust, speed) from stopping them again.
    """

    PROLIFIC, MTURK, GENERIC = "prolific", "mturk", "generic"
    ACTIVE, STOPPED, FINISHED = "active", "stopped", "finished"
    LOW_TRUST, FAST_ANSWERS, BY_ORGANISER = "low_trust", "fast_answers", "organiser"
    HEADPHONES = "headphones"
    LOW_AGREEMENT = "low_agreement"
    STOP_REASONS = [
        (LOW_TRUST, "low trust"),
        (LOW_AGREEMENT, "answers the opposite of the others"),
        (FAST_ANSWERS, "too many fast answers"),
        (BY_ORGANISER, "excluded by the organiser"),
        (HEADPHONES, "failed the headphone check"),
    ]
    PASSED, FAILED = "passed", "failed"
    COMPLETION, SCREEN_OUT, NO_CONSENT = "completion", "screen_out", "no_consent"
    UNRECORDED = "unrecorded"
    END_PAGES = [
        ("", "none"),
        (NO_CONSENT, "the no-consent code"),
        (SCREEN_OUT, "the screen-out page"),
        (COMPLETION, "the completion code"),
    ]
    """The end pages a worker may be shown, weakest first: a stronger one is never
    replaced by a weaker one (:func:`crowd.services.workers.worker_end_shown`)."""

    campaign = models.ForeignKey(
        PreferenceCampaign, on_delete=models.CASCADE, related_name="workers"
    )
    platform = models.CharField(
        max_length=10,
        choices=[(PROLIFIC, "Prolific"), (MTURK, "Mechanical Turk"), (GENERIC, "other")],
    )
    platform_id = models.CharField(max_length=200, validators=[name_validator(200)])
    study_id = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])
    session_id = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])
    assignment_id = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])
    hit_id = models.CharField(max_length=200, blank=True, validators=[name_validator(200)])
    turk_submit_to = models.URLField(blank=True)
    address_hash = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Keyed hash of the client address it arrived from (the cap on new ids per "
        "address and hour, EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR).",
    )  # fmt: skip
    device_hash = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Keyed hash of stable request features of the device it arrived from: a "
        "stopped worker's device cannot start again under a new id (a deterrent, not proof).",
    )  # fmt: skip
    seed = models.BigIntegerField(help_text="Seeds this worker's example order and sides.")
    browser_key = models.CharField(
        max_length=64, blank=True, editable=False,
        help_text="Secret of the browser this worker is bound to; empty: the next arrival binds.",
    )  # fmt: skip
    consented_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=10,
        default=ACTIVE,
        choices=[(ACTIVE, "active"), (STOPPED, "stopped"), (FINISHED, "finished")],
    )
    stop_reason = models.CharField(max_length=20, blank=True, choices=STOP_REASONS)
    stop_note = models.TextField(blank=True, help_text="The organiser's reason for excluding.")
    stopped_at = models.DateTimeField(null=True, blank=True)
    trusted_by_organiser = models.BooleanField(
        default=False,
        help_text="Reinstated (or imported) by the organiser: their answers count whatever "
        "the automatic rules say.",
    )
    end_shown = models.CharField(
        max_length=10, blank=True, default="",
        choices=[(UNRECORDED, "not recorded"), *END_PAGES],
        help_text="The strongest end page this worker was shown: the completion code (or "
        "Mechanical Turk's submission), the screen-out page, or the no-consent code; what "
        "the approvals recommend follows it (issue 31). Empty: none yet. Not recorded: the "
        "worker arrived before Earshot recorded it, and their status stands in for it.",
    )  # fmt: skip
    reinstated_unseen = models.BooleanField(
        default=False, help_text="Reinstated, and not yet told so on their next visit."
    )
    headphones = models.CharField(
        max_length=6, blank=True,
        choices=[("", "not taken"), (PASSED, "passed"), (FAILED, "failed")],
        help_text="The headphone screen's result (campaigns with headphone_check).",
    )  # fmt: skip
    headphones_right = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Headphone screen: trials answered right."
    )
    served_count = models.PositiveIntegerField(
        default=0, help_text="Tasks served, practice tasks left out (the cap M counts these)."
    )
    practice_count = models.PositiveSmallIntegerField(
        default=0, help_text="Practice tasks served (they come before any other task)."
    )
    answer_count = models.PositiveIntegerField(default=0)
    listening_refusals = models.PositiveIntegerField(
        default=0, help_text="Answers refused because the listening check was not met."
    )
    trap_answered = models.PositiveIntegerField(default=0)
    trap_correct = models.PositiveIntegerField(default=0)
    trust = models.FloatField(null=True, blank=True)
    trusted = models.BooleanField(
        default=False, help_text="Enough trap answers (or the quiz) and trust ≥ threshold."
    )
    agreement_same = models.FloatField(
        null=True, blank=True,
        help_text="Estimated share of answers the same as the others' (and the trap "
        "questions' keys): evaluation.core.worker_agreement; None until first estimated.",
    )  # fmt: skip
    agreement_opposite = models.FloatField(
        null=True, blank=True,
        help_text="Estimated share of answers the opposite of the others' (A ↔ B better, "
        "both good ↔ both bad).",
    )  # fmt: skip
    agreement_compared = models.PositiveIntegerField(
        default=0,
        help_text="Answers the estimate compared: to trap questions, or to examples others "
        "answered too.",
    )
    agreement_opposite_ordinary = models.FloatField(
        null=True, blank=True,
        help_text="Estimated share of opposite answers on the examples that are not trap or "
        "quiz questions (the right answers to those do not dilute it).",
    )  # fmt: skip
    agreement_compared_ordinary = models.PositiveIntegerField(
        default=0, help_text="Of the answers compared, those to examples that are not trap or "
        "quiz questions.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "judging_worker"  # the table of before issue 30
        ordering = ["campaign", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "platform", "platform_id"], name="worker_once_per_platform"
            ),
            models.CheckConstraint(
                condition=Q(trap_correct__lte=F("trap_answered")), name="worker_trap_counts"
            ),
            models.CheckConstraint(
                condition=Q(answer_count__lte=F("served_count")), name="worker_answers_served"
            ),
            models.CheckConstraint(
                condition=Q(status="stopped") | Q(stop_reason=""),
                name="worker_stop_reason_only_when_stopped",
            ),
        ]
        indexes = [
            # New ids per client address in the last hour, and a stopped worker's device
            # arriving again (worker_arrive): both read on every arrival.
            models.Index(fields=["campaign", "address_hash", "created_at"], name="worker_address"),
            models.Index(fields=["campaign", "device_hash"], name="worker_device"),
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()} {self.platform_id}"

    def headphones_pending(self) -> bool:
        """The campaign screens for headphones and this worker has yet to pass (a worker
        the organiser reinstated or vouched for is not screened again)."""
        return (
            self.campaign.headphone_check
            and self.headphones != self.PASSED
            and not self.trusted_by_organiser
        )

    def completion_code_shown(self) -> str:
        """The completion code this worker is shown when they earned it: the campaign's,
        or with ``per_worker_codes`` (not on Prolific, which takes one code per study) the
        campaign's followed by 8 characters keyed to the worker with the project's
        secret, so a code cannot be passed on or made up (the approvals export lists it)."""
        campaign = self.campaign
        if not campaign.per_worker_codes or self.platform == self.PROLIFIC:
            return campaign.completion_code
        key = f"earshot.crowd.code.{settings.SECRET_KEY}".encode()
        own = hmac.new(key, f"{campaign.token}:{self.pk}".encode(), hashlib.sha256)
        return f"{campaign.completion_code}-{own.hexdigest()[:8].upper()}"

    @property
    def trap_missed(self) -> int:
        """Trap answers that count and were wrong: the other side of :attr:`trust`."""
        return self.trap_answered - self.trap_correct

    @property
    def status_label(self) -> str:
        """``"stopped: low trust"``, ``"active"``, …: the status with the reason to stop;
        an active worker who has not consented (yet: someone who declined may come back)
        is ``"active: has not consented"``."""
        if self.status == self.STOPPED and self.stop_reason:
            return f"stopped: {self.get_stop_reason_display()}"
        if self.status == self.ACTIVE and self.consented_at is None:
            return "active: has not consented"
        return self.get_status_display()


class PreferenceTask(models.Model):
    """One task rendered for a worker: an example, the sides shown, an idempotency key.

    A worker has at most one open (unanswered) task, so a reload shows the same
    example with the same sides until it is answered. ``released`` marks an open
    task whose redundancy slot was given back after the lease ran out, or an answered
    one whose answer waited on a worker who left untrusted
    (:func:`crowd.services.slots.answers_release_gone`).
    """

    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="tasks")
    example = models.ForeignKey(Example, on_delete=models.CASCADE, related_name="tasks")
    position = models.PositiveIntegerField(help_text="1 for the worker's first task.")
    key = models.CharField(max_length=64, unique=True, default=_token, editable=False)
    swapped = models.BooleanField(help_text="List b is shown as A (and list a as B).")
    is_quiz = models.BooleanField(default=False)
    is_practice = models.BooleanField(
        default=False, help_text="A practice task: its answer is a PracticeAnswer, never an Answer."
    )
    served_at = models.DateTimeField()
    alive_at = models.DateTimeField(
        null=True,
        help_text="When the task's page last said it was open (served, then its heartbeat): "
        "the lease on the example's slot ends TASK_HEARTBEAT_LEASE after it.",
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    released = models.BooleanField(default=False)

    class Meta:
        db_table = "judging_preferencetask"  # the table of before issue 30
        ordering = ["worker", "position"]
        constraints = [
            models.UniqueConstraint(fields=["worker", "example"], name="task_example_once"),
            models.UniqueConstraint(fields=["worker", "position"], name="task_position"),
            models.UniqueConstraint(
                fields=["worker"],
                condition=Q(answered_at__isnull=True),
                name="task_one_open_per_worker",
            ),
            models.CheckConstraint(
                condition=Q(is_quiz=False) | Q(is_practice=False), name="task_quiz_or_practice"
            ),
        ]
        indexes = [
            # Serving gives back the slots of open tasks whose page went silent when
            # nothing else is left (tasks_release_stale): this finds them among the open
            # ones instead of scanning every task.
            models.Index(
                fields=["alive_at"],
                condition=Q(answered_at__isnull=True, released=False),
                name="task_open_alive",
            ),
        ]

    def __str__(self) -> str:
        return f"task {self.position} of {self.worker}"

    def shown_sides(self) -> str:
        """``"ab"``: list a shown as A; ``"ba"``: list b shown as A."""
        return "ba" if self.swapped else "ab"


class Answer(models.Model):
    """A worker's preference on an example, with the side mapping shown and timings.

    ``choice`` is what the worker clicked about the lists *as shown*; ``outcome`` is the
    same answer about the stored lists a and b. Answers are never deleted: a stopped
    worker's answers are ``excluded``; ``accepted_at`` is set while an answer counts for
    results (a trusted worker, an example that is not a trap question).
    """

    task = models.OneToOneField(PreferenceTask, on_delete=models.CASCADE, related_name="answer")
    worker = models.ForeignKey(Worker, on_delete=models.CASCADE, related_name="answers")
    example = models.ForeignKey(Example, on_delete=models.CASCADE, related_name="answers")
    choice = models.CharField(max_length=10, choices=CHOICES)
    outcome = models.CharField(max_length=10, choices=CHOICES)
    swapped = models.BooleanField()
    comment = models.TextField(blank=True, validators=[text_validator(COMMENT_MAX_LENGTH)])
    served_at = models.DateTimeField()
    answered_at = models.DateTimeField()
    seconds = models.FloatField(help_text="From serving the task to receiving the answer.")
    clips_heard = models.PositiveSmallIntegerField(
        default=0, help_text="Clips (query included) whose audio the server sent for the task."
    )
    correct = models.BooleanField(null=True, blank=True, help_text="Trap questions only.")
    excluded = models.BooleanField(default=False)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "judging_answer"  # the table of before issue 30
        ordering = ["worker", "answered_at"]
        constraints = [
            models.UniqueConstraint(fields=["worker", "example"], name="answer_once_per_example"),
            models.CheckConstraint(
                condition=Q(excluded=False) | Q(accepted_at__isnull=True),
                name="answer_excluded_not_accepted",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.worker} on {self.example}: {self.outcome}"


class PracticeAnswer(models.Model):
    """A worker's answer to a practice task (issue 23): kept apart from :class:`Answer`, so
    that no export, trust, approval, pay, mapping or result ever counts it. ``choice`` is
    about the lists as shown (the task's sides), ``outcome`` about the stored lists a and
    b; ``correct`` whether the practice question accepts it."""

    task = models.OneToOneField(
        PreferenceTask, on_delete=models.CASCADE, related_name="practice_answer"
    )
    choice = models.CharField(max_length=10, choices=CHOICES)
    outcome = models.CharField(max_length=10, choices=CHOICES)
    correct = models.BooleanField()
    answered_at = models.DateTimeField()
    seconds = models.FloatField(help_text="From serving the task to receiving the answer.")
    clips_heard = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "judging_practiceanswer"  # the table of before issue 30
        ordering = ["task"]

    def __str__(self) -> str:
        return f"practice answer to {self.task}: {self.outcome}"
