"""REST API of relevance campaigns as organisers run them: create, progress, settings,
open/closed, assessors.

Rules and messages are the services'; errors come back as ``400 {"detail": …}``
(:mod:`config.api_errors`).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from catalog.apis.base import CollectionApi
from catalog.models import JudgmentSource
from common.apis import OpenSerializer
from evaluation.core.ordered_groups.rankings import DEFAULT_ALPHA
from listening.headphones import TRIALS as HEADPHONE_TRIALS
from people.selectors import assessors_for_organiser
from relevance import selectors
from relevance.models import RelevanceCampaign
from relevance.services.campaigns import relevance_campaign_create
from relevance.services.settings import (
    RELEVANCE_SETTINGS,
    relevance_campaign_assessor_add,
    relevance_campaign_assessor_remove,
    relevance_campaign_open_set,
    relevance_campaign_update,
)


class RelevanceCampaignApi(CollectionApi):
    # An API view on one of the organiser's relevance campaigns (``campaign_id``); no
    # docstring, which the OpenAPI description of every view below would inherit.

    def get_relevance_campaign(self, pk: int) -> RelevanceCampaign:
        return selectors.relevance_campaign_for_organiser(
            user=self.request.user, campaign_id=pk, need=self.need
        )


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


class RelevanceCampaignListApi(RelevanceCampaignApi):
    @extend_schema(responses=RelevanceCampaignSerializer(many=True))
    def get(self, request):
        campaigns = selectors.relevance_campaigns_for_organiser(user=request.user, need="read")
        rows = campaigns.prefetch_related("assessors").order_by("pk")
        return Response(RelevanceCampaignSerializer(rows, many=True).data)


class RelevanceCampaignDetailApi(RelevanceCampaignApi):
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


class RelevanceCampaignCreateApi(RelevanceCampaignApi):
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
        grouping_rule = serializers.ChoiceField(
            choices=RelevanceCampaign.GROUPING_RULES, default="all",
            help_text="mode ranking: where a new group starts (all: Typke et al. 2005; any, "
            "prev: Urbano et al. 2010)",
        )  # fmt: skip
        grouping_alpha = serializers.FloatField(
            min_value=0.001, max_value=0.5, default=DEFAULT_ALPHA,
            help_text="mode ranking: significance level of the rank-sum test",
        )  # fmt: skip
        groups_source = serializers.CharField(
            max_length=200, default="", allow_blank=True,
            help_text="mode ranking: the name of the new source of its groups (default: the "
            "campaign's name)",
        )  # fmt: skip
        groups_status = serializers.ChoiceField(
            choices=JudgmentSource.STATUSES, default=JudgmentSource.PILOT,
            help_text="mode ranking: whether its groups count in results",
        )  # fmt: skip

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


class RelevanceCampaignSettingsUpdateApi(RelevanceCampaignApi):
    """Change settings (fields left out stay); the pool cannot change."""

    @extend_schema(request=RelevanceSettingsSerializer, responses=RelevanceCampaignSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = RelevanceSettingsSerializer(campaign, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        relevance_campaign_update(campaign=campaign, changes=dict(data.validated_data))
        return Response(RelevanceCampaignSerializer(campaign).data)


class RelevanceCampaignOpenApi(RelevanceCampaignApi):
    """Close (no new queries handed out) or reopen."""

    @extend_schema(request=OpenSerializer, responses=RelevanceCampaignSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_relevance_campaign(campaign_id)
        data = OpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        relevance_campaign_open_set(campaign=campaign, is_open=data.validated_data["is_open"])
        return Response(RelevanceCampaignSerializer(campaign).data)


class AssessorSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class RelevanceCampaignAssessorAddApi(RelevanceCampaignApi):
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


class RelevanceCampaignAssessorRemoveApi(RelevanceCampaignApi):
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
