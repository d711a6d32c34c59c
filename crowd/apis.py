"""REST API of the crowd organiser's controls: everything the campaign pages let an organiser
do (:mod:`crowd.views.campaigns`), one ``APIView`` per operation.

Create a campaign; add examples (two systems' lists, CSV); list,
mark and forgive trap questions; list workers with their speed and listening figures,
exclude (with a reason), reinstate, or let one continue in a new browser. Reads go
through :mod:`crowd.selectors.access` (another organiser's campaign is a 404); writes through
the crowd services, whose ``ValidationError`` becomes ``400 {"detail": …}``
(:mod:`config.api_errors`). Answers, each with its speed and listening figures, are
listed here too; reading campaigns is in :mod:`catalog.apis.contents`;
changing their settings, and closing or reopening them, in :mod:`relevance.apis`.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog import selectors as catalog_selectors
from common.validation import parse_id
from crowd import selectors
from crowd.apis_campaigns import CampaignApi, CampaignSerializer
from crowd.explanations import explanation_check
from crowd.forms.campaigns import CampaignForm
from crowd.models import CHOICE_LABELS, Answer, PreferenceCampaign, TrapQuestion, Worker
from crowd.platform_ids import submission_ids
from crowd.services.campaigns import preference_campaign_new
from crowd.services.examples import examples_from_systems, examples_import_csv
from crowd.services.traps import trap_pools_fill, trap_question_contest, trap_question_mark
from crowd.services.workers import worker_browser_reset, worker_exclude, worker_reinstate


class CampaignCreateApi(CampaignApi):
    """A new campaign on a collection (no examples yet), with the fields of the page's form."""

    class InputSerializer(serializers.ModelSerializer):
        class Meta:
            model = PreferenceCampaign
            fields = CampaignForm.Meta.fields

    class OutputSerializer(CampaignSerializer):
        closed_because = serializers.ListField(
            child=serializers.CharField(),
            help_text="Why the campaign was created closed although is_open was asked for "
            "(its trap pools are too small until examples and trap questions are added); "
            "empty when it is as asked.",
        )

        class Meta(CampaignSerializer.Meta):
            fields = [*CampaignSerializer.Meta.fields, "closed_because"]

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        options = dict(data.validated_data)
        campaign, closed_because = preference_campaign_new(
            collection=collection, name=options.pop("name"), **options
        )
        campaign = selectors.campaign_with_counts(user=request.user, campaign_id=campaign.pk)
        campaign.closed_because = closed_because
        return Response(self.OutputSerializer(campaign).data, status=status.HTTP_201_CREATED)


class ExamplesAddedSerializer(serializers.Serializer):
    created = serializers.IntegerField()


class ExamplesFromSystemsApi(CampaignApi):
    """Add one example per query where the two systems' top-k lists differ."""

    class InputSerializer(serializers.Serializer):
        system_a = serializers.IntegerField(help_text="Id of a system of the collection.")
        system_b = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: ExamplesAddedSerializer})
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        collection = campaign.collection
        system_a = catalog_selectors.collection_system(
            collection=collection, system_id=data.validated_data["system_a"]
        )
        system_b = catalog_selectors.collection_system(
            collection=collection, system_id=data.validated_data["system_b"]
        )
        if system_a == system_b:
            raise serializers.ValidationError({"detail": "Choose two different systems."})
        new = examples_from_systems(campaign=campaign, system_a=system_a, system_b=system_b)
        return Response({"created": len(new)}, status=status.HTTP_201_CREATED)


class ExamplesFromCsvApi(CampaignApi):
    """Import examples (and trap questions) from CSV text (docs/preference-examples-csv.md);
    all or nothing, the bad line named."""

    class InputSerializer(serializers.Serializer):
        csv = serializers.CharField(trim_whitespace=False, max_length=10_000_000)

    @extend_schema(request=InputSerializer, responses={201: ExamplesAddedSerializer})
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        new = examples_import_csv(campaign=campaign, text=data.validated_data["csv"])
        return Response({"created": len(new)}, status=status.HTTP_201_CREATED)


class TrapQuestionSerializer(serializers.ModelSerializer):
    query = serializers.CharField(source="example.query.clip.external_id")
    seen = serializers.IntegerField(
        help_text="Answers given to it (a practice question: its practice answers, which "
        "count for nothing)."
    )
    missed = serializers.IntegerField(help_text="Of those, answers it does not accept.")

    class Meta:
        model = TrapQuestion
        fields = ["id", "example", "query", "pool", "accepted_answers", "explanation",
                  "contested", "seen", "missed"]  # fmt: skip


class TrapQuestionListApi(CampaignApi):
    """The campaign's trap questions, most missed first."""

    @extend_schema(responses=TrapQuestionSerializer(many=True))
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        traps = selectors.campaign_trap_questions(campaign=campaign)
        return Response(TrapQuestionSerializer(traps, many=True).data)


class TrapQuestionMarkApi(CampaignApi):
    """Make an example a trap question (or change its accepted answers or pool)."""

    class InputSerializer(serializers.Serializer):
        accepted_answers = serializers.ListField(
            child=serializers.ChoiceField(choices=list(CHOICE_LABELS)), allow_empty=False,
            help_text="About the stored lists a and b.",
        )  # fmt: skip
        explanation = serializers.CharField(
            required=False, allow_blank=True, default="", validators=[explanation_check],
            help_text="Shown to a worker who misses a quiz question or answers a practice "
            "one: {a} and {b} stand for the stored lists a and b and are shown as each "
            "worker saw them; a side named in letters (“list A”) is refused.",
        )  # fmt: skip
        pool = serializers.ChoiceField(choices=TrapQuestion.POOLS, default=TrapQuestion.WORK)

    @extend_schema(request=InputSerializer, responses={201: TrapQuestionSerializer})
    def post(self, request, campaign_id: int, example_id: int):
        campaign = self.get_campaign(campaign_id)
        example = get_object_or_404(campaign.examples, pk=example_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        trap = trap_question_mark(example=example, **data.validated_data)
        trap = selectors.campaign_trap_questions(campaign=campaign).get(pk=trap.pk)
        return Response(TrapQuestionSerializer(trap).data, status=status.HTTP_201_CREATED)


class TrapPoolsFillApi(CampaignApi):
    """Mark as many clear-cut examples as each trap pool still needs for the campaign's
    settings, from the official judgments (practice, then quiz, then work); ``problems``
    says what is still short when clear-cut examples run out."""

    class OutputSerializer(serializers.Serializer):
        marked = serializers.DictField(
            child=serializers.IntegerField(), help_text="Trap questions marked, by pool."
        )
        summary = serializers.CharField()
        problems = serializers.ListField(child=serializers.CharField())

    @extend_schema(request=None, responses=OutputSerializer)
    def post(self, request, campaign_id: int):
        filled = trap_pools_fill(campaign=self.get_campaign(campaign_id))
        return Response(
            {"marked": filled.marked, "summary": filled.summary, "problems": filled.needs.problems}
        )


class TrapQuestionContestApi(CampaignApi):
    """Forgive a trap question (``contested: true``) or count it again; every worker who
    answered it is recomputed, and the campaign handed over to evaluation once."""

    class InputSerializer(serializers.Serializer):
        contested = serializers.BooleanField()

    class OutputSerializer(serializers.Serializer):
        workers_recomputed = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request, campaign_id: int, trap_id: int):
        campaign = self.get_campaign(campaign_id)
        trap = get_object_or_404(TrapQuestion, pk=trap_id, example__campaign=campaign)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = trap_question_contest(trap=trap, contested=data.validated_data["contested"])
        return Response({"workers_recomputed": count})


class WorkerSerializer(serializers.Serializer):
    """A worker with the figures of the organiser's workers page (:class:`WorkerRow`)."""

    id = serializers.IntegerField(source="worker.pk")
    platform = serializers.CharField(source="worker.platform")
    platform_id = serializers.CharField(source="worker.platform_id")
    status = serializers.CharField(source="worker.status")
    stop_reason = serializers.CharField(source="worker.stop_reason")
    stop_note = serializers.CharField(source="worker.stop_note")
    stopped_at = serializers.DateTimeField(source="worker.stopped_at", allow_null=True)
    trusted = serializers.BooleanField(source="worker.trusted")
    trusted_by_organiser = serializers.BooleanField(source="worker.trusted_by_organiser")
    trust = serializers.FloatField(source="worker.trust", allow_null=True)
    trap_answered = serializers.IntegerField(source="worker.trap_answered")
    trap_missed = serializers.IntegerField(source="worker.trap_missed")
    answers = serializers.IntegerField()
    median_seconds = serializers.FloatField(allow_null=True)
    fast_answers = serializers.IntegerField()
    mean_clips_heard = serializers.FloatField(allow_null=True)
    listening_refusals = serializers.IntegerField(source="worker.listening_refusals")
    headphones = serializers.CharField(
        source="worker.headphones", help_text="The headphone screen: '', 'passed' or 'failed'."
    )
    headphones_right = serializers.IntegerField(source="worker.headphones_right", allow_null=True)
    answers_every_clip_heard = serializers.IntegerField(
        source="listening.full",
        help_text="Answers whose every clip was heard (listening.selectors).",
    )
    median_coverage = serializers.FloatField(source="listening.median_coverage", allow_null=True)
    median_listening_seconds = serializers.FloatField(
        source="listening.median_seconds", allow_null=True
    )
    median_listening_needed = serializers.FloatField(
        source="listening.median_needed", allow_null=True
    )
    browser_bound = serializers.SerializerMethodField()

    def get_browser_bound(self, row) -> bool:
        """False after an organiser's reset: the next arrival binds a browser."""
        return bool(row.worker.browser_key)


STATUS = OpenApiParameter("status", str, enum=list(selectors.WORKER_STATUSES), required=False)


class WorkerListApi(CampaignApi):
    """The campaign's workers, first arrived first, paginated (``limit``, ``offset``)."""

    @extend_schema(parameters=[STATUS], responses=WorkerSerializer(many=True))
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        workers = selectors.campaign_workers(
            campaign=campaign, status=request.query_params.get("status", "")
        )
        paginator = self.paginator_for_request()
        page = paginator.paginate_queryset(workers, request, view=self)
        rows = selectors.worker_rows(campaign=campaign, workers=page)
        return paginator.get_paginated_response(WorkerSerializer(rows, many=True).data)


class WorkerApi(CampaignApi):
    """Base of the per-worker operations: the worker of the organiser's campaign, or 404."""

    def get_worker(self, campaign_id: int, worker_id: int) -> Worker:
        campaign = self.get_campaign(campaign_id)
        return selectors.campaign_worker(campaign=campaign, worker_id=worker_id)

    def respond(self, worker: Worker) -> Response:
        worker = selectors.campaign_worker(campaign=worker.campaign, worker_id=worker.pk)
        [row] = selectors.worker_rows(campaign=worker.campaign, workers=[worker])
        return Response(WorkerSerializer(row).data)


class WorkerExcludeApi(WorkerApi):
    """Stop a worker for a reason: every answer excluded, the campaign recomputed once."""

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=2000)

    @extend_schema(request=InputSerializer, responses=WorkerSerializer)
    def post(self, request, campaign_id: int, worker_id: int):
        worker = self.get_worker(campaign_id, worker_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self.respond(worker_exclude(worker=worker, reason=data.validated_data["reason"]))


class WorkerReinstateApi(WorkerApi):
    """Bring a stopped worker back and vouch for them: their answers count again."""

    @extend_schema(request=None, responses=WorkerSerializer)
    def post(self, request, campaign_id: int, worker_id: int):
        return self.respond(worker_reinstate(worker=self.get_worker(campaign_id, worker_id)))


class WorkerBrowserResetApi(WorkerApi):
    """Unbind a worker from their browser: the next arrival with their id binds a new one."""

    @extend_schema(request=None, responses=WorkerSerializer)
    def post(self, request, campaign_id: int, worker_id: int):
        return self.respond(worker_browser_reset(worker=self.get_worker(campaign_id, worker_id)))


class AnswerListApi(CampaignApi):
    """Every answer of the campaign, oldest first; ``accepted`` says whether it counts,
    ``fast`` whether it came sooner than the campaign's ``fast_answer_seconds``,
    ``clips_heard`` how many clips' audio the server sent for its task. ``?worker=<id>``
    keeps one worker's answers."""

    class OutputSerializer(serializers.ModelSerializer):
        worker = serializers.CharField(source="worker.platform_id")
        platform = serializers.CharField(source="worker.platform")
        query = serializers.CharField(source="example.query.clip.external_id")
        worker_id = serializers.IntegerField()
        trap_question = serializers.SerializerMethodField()
        accepted = serializers.SerializerMethodField()
        fast = serializers.BooleanField()

        class Meta:
            model = Answer
            fields = ["id", "example", "query", "worker", "worker_id", "platform", "choice",
                      "outcome", "swapped", "comment", "served_at", "answered_at", "seconds",
                      "fast", "clips_heard", "correct", "excluded", "accepted", "accepted_at",
                      "trap_question"]  # fmt: skip

        def get_trap_question(self, answer) -> bool:
            return answer.correct is not None

        def get_accepted(self, answer) -> bool:
            return answer.accepted_at is not None

    @extend_schema(
        parameters=[OpenApiParameter("worker", int, required=False)],
        responses=OutputSerializer(many=True),
    )
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        worker = request.query_params.get("worker", "")
        answers = selectors.campaign_answers(campaign=campaign, worker_id=parse_id(worker))
        return self.paginate(answers, self.OutputSerializer)


class ApprovalSerializer(serializers.Serializer):
    """One platform submission as the approvals export has it (``crowd.exports``)."""

    worker_id = serializers.IntegerField(source="worker.pk")
    platform = serializers.CharField(source="worker.platform")
    participant_id = serializers.CharField(source="worker.platform_id")
    session_id = serializers.CharField(source="worker.session_id")
    study_id = serializers.CharField(source="worker.study_id")
    assignment_id = serializers.CharField(source="worker.assignment_id")
    hit_id = serializers.CharField(source="worker.hit_id")
    status = serializers.CharField(source="worker.status")
    recommendation = serializers.ChoiceField(
        choices=list(selectors.RECOMMENDATIONS),
        help_text="approve: shown the completion code. screen_out (since issue 31): shown "
        "the screen-out code, paid the platform's screen-out reward, never rejected. "
        "not_earned: shown no code (or the no-consent code): ask them to return the study "
        "or HIT, nothing to pay. reject: kept for older clients, no longer recommended.",
    )
    reason = serializers.CharField()
    bonus = serializers.DecimalField(max_digits=10, decimal_places=2)
    completion_code = serializers.CharField(source="code")
    answers = serializers.IntegerField()
    work_answers = serializers.IntegerField()
    quiz_answers = serializers.IntegerField()
    trap_answered = serializers.IntegerField(source="worker.trap_answered")
    trap_correct = serializers.IntegerField(source="worker.trap_correct")
    trust = serializers.FloatField(source="worker.trust", allow_null=True)
    trusted = serializers.BooleanField(source="worker.trusted")
    median_seconds = serializers.FloatField(allow_null=True)
    mean_clips_heard = serializers.FloatField(allow_null=True)
    listening_refusals = serializers.IntegerField(source="worker.listening_refusals")

    def to_representation(self, row):
        """The ids as the approvals export writes them: empty when not of the platform's
        format (:func:`crowd.platform_ids.submission_ids`)."""
        return {**super().to_representation(row), **submission_ids(row.worker)}


class ApprovalListApi(CampaignApi):
    """Every submission of the campaign with the recommended action and bonus (the
    approvals CSV's rows, ``/campaigns/<id>/approvals.csv``), first arrived first."""

    @extend_schema(responses=ApprovalSerializer(many=True))
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        rows = selectors.campaign_approvals(campaign=campaign)
        return Response(ApprovalSerializer(rows, many=True).data)
