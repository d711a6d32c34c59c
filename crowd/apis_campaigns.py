"""REST API of a preference campaign itself: the list and one campaign with its progress,
its settings and open/closed, and the §3.2.1 example generator (its coverage, and a run
as a background job). :class:`CampaignApi` is the base of every API view on one
campaign; the crowd's data (examples, traps, workers, answers) is :mod:`crowd.apis`.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog.apis.base import CollectionApi
from catalog.apis.jobs import JobSerializer
from common.apis import OpenSerializer
from crowd import selectors
from crowd.models import PreferenceCampaign
from crowd.selectors.generator import generator_coverage
from crowd.services.generator import generator_measure_names, generator_start
from crowd.services.settings import (
    PREFERENCE_SETTINGS,
    preference_campaign_open_set,
    preference_campaign_update,
)


class CampaignApi(CollectionApi):
    # An API view on one of the organiser's preference campaigns (``campaign_id``); no
    # docstring, which the OpenAPI description of every view below would inherit.

    def get_campaign(self, pk: int) -> PreferenceCampaign:
        return selectors.campaign_for_organiser(
            user=self.request.user, campaign_id=pk, need=self.need
        )


class CampaignSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="collection_id")
    example_count = serializers.IntegerField()
    worker_count = serializers.IntegerField()

    class Meta:
        model = PreferenceCampaign
        fields = ["id", "name", "collection", "list_length", "answers_per_example",
                  "max_answers_per_worker", "quiz_length", "trap_rate", "trust_threshold",
                  "min_trap_answers", "is_open", "created_at", "example_count", "worker_count"]  # fmt: skip


class CampaignListApi(CampaignApi):
    OutputSerializer = CampaignSerializer

    @extend_schema(responses=CampaignSerializer(many=True))
    def get(self, request):
        campaigns = selectors.campaigns_for_organiser(user=request.user, need="read").order_by("pk")
        return Response(self.OutputSerializer(campaigns, many=True).data)


class CampaignDetailApi(CampaignApi):
    class OutputSerializer(CampaignSerializer):
        accepted_answers = serializers.IntegerField()
        answers = serializers.IntegerField()
        mappings = serializers.ListField(
            child=serializers.CharField(), help_text="Measures with a stored mapping."
        )

        class Meta(CampaignSerializer.Meta):
            fields = [*CampaignSerializer.Meta.fields, "accepted_answers", "answers", "mappings"]

    @extend_schema(responses=OutputSerializer)
    def get(self, request, campaign_id: int):
        campaign = selectors.campaign_with_counts(
            user=request.user, campaign_id=campaign_id, need="read"
        )
        progress = selectors.campaign_progress(campaign=campaign)
        campaign.accepted_answers = progress.accepted
        campaign.answers = progress.answers
        campaign.mappings = selectors.campaign_mapping_measures(campaign=campaign)
        return Response(self.OutputSerializer(campaign).data)


class PreferenceSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = PreferenceCampaign
        fields = list(PREFERENCE_SETTINGS)


class PreferenceSettingsOutputSerializer(PreferenceSettingsSerializer):
    class Meta(PreferenceSettingsSerializer.Meta):
        fields = ["id", "is_open", "list_length", *PREFERENCE_SETTINGS]


class PreferenceCampaignSettingsApi(CampaignApi):
    @extend_schema(responses=PreferenceSettingsOutputSerializer)
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        return Response(PreferenceSettingsOutputSerializer(campaign).data)


class PreferenceCampaignSettingsUpdateApi(CampaignApi):
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


class PreferenceCampaignOpenApi(CampaignApi):
    """Close (the task link says the study is closed) or reopen."""

    @extend_schema(request=OpenSerializer, responses=PreferenceSettingsOutputSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = OpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        preference_campaign_open_set(campaign=campaign, is_open=data.validated_data["is_open"])
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


class GeneratorCoverageApi(CampaignApi):
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


class GeneratorRunApi(CampaignApi):
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
