"""Forms of the crowd pages: task links, consent, answers; and the organiser's campaign forms."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import forms

from catalog.models import System
from common.form_fields import IdChoiceField
from common.validation import name_validator, text_validator
from crowd.explanations import explanation_check
from crowd.forms.labels import PREFERENCE_HELP, PREFERENCE_LABELS
from crowd.models import CHOICES, COMMENT_MAX_LENGTH, PreferenceCampaign, TrapQuestion
from crowd.platform_ids import (
    TOKEN_FORMAT,
    mturk_entity_id_problem,
    mturk_worker_id_problem,
    prolific_id_problem,
    token_problem,
)
from crowd.services.workers import Arrival
from crowd.worker_session import mturk_submit_origins

MTURK_PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE"
NAME = name_validator()  # lengths are the fields' own max_length


class TaskLinkForm(forms.Form):
    """The query string of a task link: Prolific, Mechanical Turk or generic ``?worker=``.

    ``cleaned_data["arrival"]`` is an :class:`Arrival`, or ``None`` for an MTurk preview.
    Every id must have its platform's format (:mod:`crowd.platform_ids`): a link with
    none is refused as ``missing``, one whose id is not an id as ``malformed``
    (:meth:`heading` says which).
    """

    MISSING, MALFORMED = "missing", "malformed"
    HEADINGS = {
        MISSING: "This study link is missing your id",
        MALFORMED: "The id in this study link is not valid",
    }

    PROLIFIC_PID = forms.CharField(required=False, max_length=500)
    STUDY_ID = forms.CharField(required=False, max_length=500)
    SESSION_ID = forms.CharField(required=False, max_length=500)
    workerId = forms.CharField(required=False, max_length=500)
    assignmentId = forms.CharField(required=False, max_length=500)
    hitId = forms.CharField(required=False, max_length=500)
    turkSubmitTo = forms.CharField(required=False, max_length=500, validators=[NAME])
    worker = forms.CharField(required=False, max_length=500)

    def clean(self):
        data = super().clean()
        if self.errors:  # longer than any id of any platform
            raise self._malformed("an id", TOKEN_FORMAT)
        if data.get("PROLIFIC_PID"):
            data["PROLIFIC_PID"] = data["PROLIFIC_PID"].lower()  # one participant, one worker
            self._check(data, "PROLIFIC_PID", prolific_id_problem, "your Prolific id")
            self._check(data, "STUDY_ID", token_problem, "the study id")
            self._check(data, "SESSION_ID", token_problem, "the session id")
            data["arrival"] = Arrival(
                "prolific", data["PROLIFIC_PID"], study_id=data.get("STUDY_ID", ""),
                session_id=data.get("SESSION_ID", ""),
            )  # fmt: skip
        elif data.get("assignmentId") or data.get("workerId"):
            if data.get("assignmentId") == MTURK_PREVIEW:
                data["arrival"] = None
                return data
            submit_to = data.get("turkSubmitTo", "").rstrip("/")
            parts = urlsplit(submit_to)
            if f"{parts.scheme}://{parts.netloc}" not in mturk_submit_origins() or parts.path:
                raise forms.ValidationError(
                    "turkSubmitTo is not a Mechanical Turk address.", code=self.MALFORMED
                )
            if not (data.get("workerId") and data.get("assignmentId")):
                raise forms.ValidationError(
                    "workerId and assignmentId are both needed.", code=self.MISSING
                )
            self._check(data, "workerId", mturk_worker_id_problem, "your worker id")
            self._check(data, "assignmentId", mturk_entity_id_problem, "the assignment id")
            self._check(data, "hitId", mturk_entity_id_problem, "the HIT id")
            data["arrival"] = Arrival(
                "mturk", data["workerId"], assignment_id=data["assignmentId"],
                hit_id=data.get("hitId", ""), turk_submit_to=submit_to,
            )  # fmt: skip
        elif data.get("worker"):
            self._check(data, "worker", token_problem, "your participant id")
            data["arrival"] = Arrival("generic", data["worker"])
        else:
            raise forms.ValidationError("This link does not say who you are.", code=self.MISSING)
        return data

    def _check(self, data: dict, field: str, problem, what: str) -> None:
        """Refuse the link when ``data[field]`` (when given) fails ``problem``."""
        found = problem(data[field]) if data.get(field) else None
        if found is not None:
            raise self._malformed(what, found)

    def _malformed(self, what: str, rule: str) -> forms.ValidationError:
        return forms.ValidationError(
            f"{what[0].upper()}{what[1:]} in this link is not valid: {rule}.", code=self.MALFORMED
        )

    def heading(self) -> str:
        """The refusal page's heading for an invalid link."""
        codes = {error.code for error in self.errors.as_data().get("__all__", [])}
        return self.HEADINGS[self.MISSING if self.MISSING in codes else self.MALFORMED]

    def is_preview(self) -> bool:
        return self.data.get("assignmentId") == MTURK_PREVIEW


class ConsentForm(forms.Form):
    agree = forms.BooleanField(
        required=True, label="I have read the information above and agree to take part"
    )
    token = forms.CharField(widget=forms.HiddenInput)


class AnswerForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    choice = forms.ChoiceField(
        choices=CHOICES, widget=forms.RadioSelect, label="Which list is better?"
    )
    comment = forms.CharField(
        required=False, max_length=COMMENT_MAX_LENGTH, label="Comments (optional)",
        validators=[text_validator(COMMENT_MAX_LENGTH)],
        widget=forms.Textarea(attrs={"rows": 2}),
    )  # fmt: skip


# --- organiser forms ------------------------------------------------------------------


class CampaignForm(forms.ModelForm):
    class Meta:
        model = PreferenceCampaign
        fields = [
            "name", "instructions", "consent_text", "list_length", "answers_per_example",
            "max_answers_per_worker", "quiz_length", "trap_rate", "trust_threshold",
            "min_trap_answers", "completion_code", "screen_out_code", "no_consent_code",
            "minutes_estimate", "pay_text", "is_open",
            "listening_check", "min_clips_per_list", "min_seconds_on_task",
            "fast_answer_seconds", "stop_after_fast_answers", "min_work_answers",
            "trust_check_every", "per_worker_codes", "bonus_per_answer", "headphone_check",
            "headphone_pass_mark", "practice_length",
        ]  # fmt: skip
        labels = PREFERENCE_LABELS
        help_texts = PREFERENCE_HELP

    OPTIONAL_NUMBERS = (
        "min_clips_per_list", "min_seconds_on_task", "fast_answer_seconds",
        "stop_after_fast_answers", "min_work_answers", "trust_check_every", "bonus_per_answer",
        "no_consent_code",
        "headphone_pass_mark", "practice_length",
    )  # fmt: skip
    """Left empty, these take the model's default (a code: a new random one)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.OPTIONAL_NUMBERS:
            self.fields[name].required = False

    def clean(self):
        data = super().clean()
        for name in self.OPTIONAL_NUMBERS:
            if data.get(name) in (None, ""):
                data[name] = PreferenceCampaign._meta.get_field(name).get_default()
        return data


class SystemPairForm(forms.Form):
    system_a = IdChoiceField(queryset=System.objects.none())
    system_b = IdChoiceField(queryset=System.objects.none())

    def __init__(self, *args, collection, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("system_a", "system_b"):
            self.fields[name].queryset = collection.systems.order_by("name")

    def clean(self):
        data = super().clean()
        if data.get("system_a") and data.get("system_a") == data.get("system_b"):
            raise forms.ValidationError("Choose two different systems.")
        return data


class ExamplesCsvForm(forms.Form):
    file = forms.FileField(label="Examples CSV")


class TrapQuestionForm(forms.Form):
    accepted_answers = forms.MultipleChoiceField(
        choices=CHOICES, widget=forms.CheckboxSelectMultiple,
        help_text="A and B are the lists as this page shows them. Workers see them in a "
        "random order; a worker who sees them the other way round is expected to answer "
        "the other way round.",
    )  # fmt: skip
    explanation = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False,
        validators=[text_validator(), explanation_check],
        help_text="Shown to a worker who misses a quiz question, and after every answer to "
        "a practice question. The worker may see the lists the other way round, so do not "
        "write “list A” or “list B”: write {a} for the list shown here as List A and {b} "
        "for List B — each worker reads them as their own sides — or describe the lists "
        "without naming a side (“the list with the query's own instruments”).",
    )  # fmt: skip
    pool = forms.ChoiceField(
        choices=TrapQuestion.POOLS, initial=TrapQuestion.WORK, widget=forms.RadioSelect,
        required=False,
        help_text="Quiz questions are shown first and their answers revealed; work "
        "questions are mixed in and never revealed; practice questions come before the "
        "quiz, every worker sees their answer, and they count for nothing.",
    )  # fmt: skip

    def clean_pool(self) -> str:
        return self.cleaned_data["pool"] or TrapQuestion.WORK


class WorkerExcludeForm(forms.Form):
    reason = forms.CharField(
        max_length=2000, label="Reason",
        widget=forms.TextInput(attrs={"placeholder": "why (the worker is not shown this)"}),
    )  # fmt: skip
