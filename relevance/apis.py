"""REST API of campaigns as organisers run them: relevance campaigns (create, progress,
settings, open/closed, assessors), preference campaigns' settings and open/closed, and the
§3.2.1 example generator (its coverage, and a run as a background job).

The crowd's own data (examples, workers, answers) is :mod:`catalog.apis.contents`; jobs are
:mod:`catalog.apis.jobs`. Rules and messages are the services'; errors come back as
``400 {"detail": …}`` (:mod:`config.api_errors`).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from catalog.apis.contents import OrganiserApi
from catalog.apis.jobs import JobSerializer
from crowd.models import PreferenceCampaign
from crowd.selectors.generator import generator_coverage
from crowd.services.generator import generator_measure_names, generator_start
from listening.headphones import TRIALS as HEADPHONE_TRIALS
from people.selectors import assessors_for_organiser
from relevance import selectors
from relevance.models import RelevanceCampaign
from relevance.services.campaigns import relevance_campaign_create
from relevance.services.settings import (
    PREFERENCE_SETTINGS,
    RELEVANCE_SETTINGS,
    campaign_open_set,
    preference_campaign_update,
    relevance_campaign_assessor_add,
    relevance_campaign_assessor_remove,
    relevance_campaign_update,
)


class OpenSerializer(serializers.Serializer):
    is_open = serializers.BooleanField(help_text="false closes: no new work is handed out")


# --- relevance campaigns -----------------------------------------------------------


class RelevanceSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = RelevanceCampaign
        fields = list(RELEVANCE_SETTINGS)


class RelevanceCampaignSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="collection_id")
    assessors = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")

    class Meta:
        model = RelevanceCampaign
        fields = ["id", "name", "collection", "cutoff", "exclude_same_artist", "mode",
                  *RELEVANCE_SETTINGS[1:], "is_open", "created_at", "assessors"]  # fmt: skip


class AssessorProgressSerializer(serializers.Serializer):
    assessor = serializers.CharField(source="assessor.username")
    headphones = serializers.CharField(
        source="screen.result", default="",
        help_text="the headphone screen's last decided try: '', 'passed' or 'failed'",
    )  # fmt: skip
    headphones_right = serializers.IntegerField(source="screen.right", default=None)
    headphone_tries = serializers.IntegerField(source="screen.tries", default=0)
    assigned = serializers.IntegerField(help_text="queries taken")
    done = serializers.IntegerField(help_text="queries finished")
    judgments = serializers.IntegerField(help_text="candidates with both Broad and Fine")
    judging_seconds = serializers.FloatField()
    listened_seconds = serializers.FloatField()
    plays = serializers.IntegerField()


class AgreementSerializer(serializers.Serializer):
    queries = serializers.IntegerField()
    pairs = serializers.IntegerField(help_text="query–clip pairs judged by two or more")
    alpha_fine = serializers.FloatField(allow_null=True)
    alpha_broad = serializers.FloatField(allow_null=True)
    rms_fine = serializers.FloatField(allow_null=True)
    rms_broad = serializers.FloatField(allow_null=True)


def _finite(agreement) -> dict:
    """NaN (too few shared pairs) as null: JSON has no NaN."""
    return {
        key: None if isinstance(value, float) and value != value else value
        for key, value in vars(agreement).items()
    }


class RelevanceCampaignListApi(OrganiserApi):
    @extend_schema(responses=RelevanceCampaignSerializer(many=True))
    def get(self, request):
        campaigns = selectors.relevance_campaigns_for_organiser(user=request.user, need="read")
        rows = campaigns.prefetch_related("assessors").order_by("pk")
        return Response(RelevanceCampaignSerializer(rows, many=True).data)


class RelevanceCampaignDetailApi(OrganiserApi):
    """A relevance campaign with each assessor's progress and their agreement (α, RMS)."""

    class OutputSerializer(serializers.Serializer):
        campaign = RelevanceCampaignSerializer()
        progress = AssessorProgressSerializer(many=True)
        agreement = AgreementSerializer()

    @extend_schema(responses=OutputSerializer)
    def get(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        body = {
            "campaign": campaign,
            "progress": selectors.campaign_progress_by_assessor(campaign=campaign),
            "agreement": _finite(selectors.campaign_agreement(campaign=campaign)),
        }
        return Response(self.OutputSerializer(body).data)


class RelevanceCampaignCreateApi(OrganiserApi):
    """Create a relevance campaign on a collection the organiser may change; its pool is
    every system's top ``cutoff`` per query, fixed now."""

    class InputSerializer(serializers.Serializer):
        collection = serializers.IntegerField()
        name = serializers.CharField(max_length=200)
        cutoff = serializers.IntegerField(min_value=1, max_value=100, default=5)
        exclude_same_artist = serializers.BooleanField(default=True)
        assessors_per_query = serializers.IntegerField(min_value=1, max_value=20, default=1)
        queries_per_assessor = serializers.IntegerField(
            min_value=1, required=False, allow_null=True, default=None
        )
        must_listen_seconds = serializers.IntegerField(min_value=0, max_value=600, default=5)
        take_back_minutes = serializers.IntegerField(min_value=1, max_value=10080, default=60)
        headphone_check = serializers.BooleanField(
            default=False, help_text="each assessor passes the headphone screen before judging"
        )
        headphone_pass_mark = serializers.IntegerField(
            min_value=1, max_value=HEADPHONE_TRIALS, default=5, help_text="right answers of 6"
        )
        mode = serializers.ChoiceField(
            choices=RelevanceCampaign.MODES, default=RelevanceCampaign.POOLED
        )
        lowcost_measure = serializers.CharField(
            max_length=100, default="", allow_blank=True,
            help_text="default: CG(scale=fine)@5, or CG(scale=broad)@5 on a collection judged "
            "on the Broad scale only",
        )  # fmt: skip
        lowcost_target = serializers.ChoiceField(
            choices=RelevanceCampaign.TARGETS, default=RelevanceCampaign.RELATIVE
        )
        lowcost_stop_at = serializers.FloatField(default=0.95)
        assessors = serializers.ListField(
            child=serializers.CharField(), required=False, default=list
        )

    @extend_schema(request=InputSerializer, responses={201: RelevanceCampaignSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        collection = self.get_collection(values.pop("collection"))
        names = values.pop("assessors")
        found = list(assessors_for_organiser(user=request.user).filter(username__in=names))
        missing = sorted(set(names) - {a.username for a in found})
        if missing:
            raise ValidationError({"detail": f"No assessor is called {', '.join(missing)}."})
        campaign = relevance_campaign_create(collection=collection, assessors=found, **values)
        return Response(RelevanceCampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class RelevanceCampaignSettingsUpdateApi(OrganiserApi):
    """Change settings (fields left out stay); the pool cannot change."""

    @extend_schema(request=RelevanceSettingsSerializer, responses=RelevanceCampaignSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = RelevanceSettingsSerializer(campaign, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        relevance_campaign_update(campaign=campaign, changes=dict(data.validated_data))
        return Response(RelevanceCampaignSerializer(campaign).data)


class RelevanceCampaignOpenApi(OrganiserApi):
    """Close (no new queries handed out) or reopen."""

    @extend_schema(request=OpenSerializer, responses=RelevanceCampaignSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = OpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign_open_set(campaign=campaign, is_open=data.validated_data["is_open"])
        return Response(RelevanceCampaignSerializer(campaign).data)


class AssessorSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class RelevanceCampaignAssessorAddApi(OrganiserApi):
    class OutputSerializer(serializers.Serializer):
        added = serializers.BooleanField(help_text="false when they already judged here")

    @extend_schema(request=AssessorSerializer, responses=OutputSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = AssessorSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"]
        assessor = assessors_for_organiser(user=request.user).filter(username=username).first()
        if assessor is None:
            raise ValidationError({"detail": f"No assessor is called {username!r}."})
        added = relevance_campaign_assessor_add(campaign=campaign, assessor=assessor)
        return Response({"added": added})


class RelevanceCampaignAssessorRemoveApi(OrganiserApi):
    """Stop an assessor judging here; what they judged stays."""

    class OutputSerializer(serializers.Serializer):
        freed = serializers.IntegerField(help_text="untouched queries given back")
        reopened = serializers.IntegerField(help_text="started queries given one more slot")

    @extend_schema(request=AssessorSerializer, responses=OutputSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = AssessorSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        assessor = get_object_or_404(
            get_user_model(), username=data.validated_data["username"], relevance_campaigns=campaign
        )
        return Response(relevance_campaign_assessor_remove(campaign=campaign, assessor=assessor))


# --- preference campaigns --------------------------------------------------------------


class PreferenceSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = PreferenceCampaign
        fields = list(PREFERENCE_SETTINGS)


class PreferenceSettingsOutputSerializer(PreferenceSettingsSerializer):
    class Meta(PreferenceSettingsSerializer.Meta):
        fields = ["id", "is_open", "list_length", *PREFERENCE_SETTINGS]


class PreferenceCampaignSettingsApi(OrganiserApi):
    @extend_schema(responses=PreferenceSettingsOutputSerializer)
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        return Response(PreferenceSettingsOutputSerializer(campaign).data)


class PreferenceCampaignSettingsUpdateApi(OrganiserApi):
    """Change settings (fields left out stay). Trust settings decide every worker's trust
    again, and the mapping is recomputed once if the accepted answers change."""

    @extend_schema(
        request=PreferenceSettingsSerializer, responses=PreferenceSettingsOutputSerializer
    )
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = PreferenceSettingsSerializer(campaign, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        preference_campaign_update(campaign=campaign, changes=dict(data.validated_data))
        return Response(PreferenceSettingsOutputSerializer(campaign).data)


class PreferenceCampaignOpenApi(OrganiserApi):
    """Close (the task link says the study is closed) or reopen."""

    @extend_schema(request=OpenSerializer, responses=PreferenceSettingsOutputSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = OpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign_open_set(campaign=campaign, is_open=data.validated_data["is_open"])
        return Response(PreferenceSettingsOutputSerializer(campaign).data)


# --- the example generator (thesis §3.2.1) ----------------------------------------------


class GeneratorChoiceSerializer(serializers.Serializer):
    measures = serializers.ListField(
        child=serializers.CharField(max_length=200), allow_empty=False, max_length=12,
        help_text="User-oriented measures with the campaign's cut-off, e.g. CG(scale=fine)@5",
    )  # fmt: skip
    bins = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=9), allow_empty=False,
        default=list(range(10)), help_text="|Δλ| bins: 0 is [0, 0.1), …, 9 is [0.9, 1]",
    )  # fmt: skip
    per_bin = serializers.IntegerField(min_value=1, max_value=1000, default=20)


class GeneratorCoverageApi(OrganiserApi):
    """Examples per (measure, bin) so far, and which bins no pair of lists can reach."""

    class OutputSerializer(serializers.Serializer):
        class CellSerializer(serializers.Serializer):
            bin = serializers.IntegerField()
            label = serializers.CharField()
            examples = serializers.IntegerField()
            status = serializers.ChoiceField(
                choices=["filled", "short", "unreachable", "not chosen"]
            )

        measure = serializers.CharField()
        highest_bin = serializers.IntegerField()
        cells = CellSerializer(many=True)

    @extend_schema(
        parameters=[
            OpenApiParameter("measure", OpenApiTypes.STR, many=True, required=True),
            OpenApiParameter("bin", OpenApiTypes.INT, many=True),
            OpenApiParameter("per_bin", OpenApiTypes.INT),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        query = {"measures": request.query_params.getlist("measure"),
                 "per_bin": request.query_params.get("per_bin", 20)}  # fmt: skip
        if request.query_params.getlist("bin"):
            query["bins"] = request.query_params.getlist("bin")
        data = GeneratorChoiceSerializer(data=query)
        data.is_valid(raise_exception=True)
        measures = _generator_measures(data.validated_data["measures"], campaign)
        rows = generator_coverage(
            campaign=campaign, measures=measures, bins=data.validated_data["bins"],
            per_bin=data.validated_data["per_bin"],
        )  # fmt: skip
        return Response(self.OutputSerializer(rows, many=True).data)


def _generator_measures(names, campaign) -> list[str]:
    return generator_measure_names(
        families=[], scales=[], gain="lin", k=campaign.list_length, others=names
    )


class GeneratorRunApi(OrganiserApi):
    """Start the generator as a background job (202); follow it at ``/api/jobs/<id>/``.

    While it runs on the campaign, asking again returns the same job."""

    class InputSerializer(GeneratorChoiceSerializer):
        seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)
        max_examples = serializers.IntegerField(
            min_value=1, max_value=100_000, required=False, allow_null=True, default=None
        )

    @extend_schema(request=InputSerializer, responses={202: JobSerializer})
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["measures"] = _generator_measures(values["measures"], campaign)
        job = generator_start(campaign=campaign, owner=request.user, **values)
        return Response(JobSerializer(job.to_dict()).data, status=status.HTTP_202_ACCEPTED)
