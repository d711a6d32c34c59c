"""REST API for results: recompute status and requests, leaderboards, reliability studies.

Results are read from what the last recompute stored; nothing is computed in a request.
Measures are named in the ``measure`` query parameter (names carry ``@``, ``(`` and ``=``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog.published import collection_for_organiser
from common.apis import OrganiserApi
from crowd.published import campaign_for_organiser
from evaluation import selectors
from evaluation.models import MappingConfig, ResultsConfig
from evaluation.services import collection_results_request
from evaluation.services.settings import mapping_config_update, results_config_update

MEASURE = OpenApiParameter("measure", OpenApiTypes.STR, required=True, description="e.g. CG@5")


class RecomputeSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["idle", "pending", "running", "done", "failed"],
        help_text="Where the recompute stands, in the words of before issue 30 (queued: pending).",
    )
    state = serializers.ChoiceField(
        choices=["idle", "queued", "running", "done", "failed"],
        help_text="Where the recompute stands, in the words of every piece of background work.",
    )
    active = serializers.BooleanField()
    dirty = serializers.BooleanField()
    progress = serializers.FloatField()
    message = serializers.CharField()
    error = serializers.CharField()
    runs = serializers.IntegerField(help_text="Computations started (also ``computations``).")
    computations = serializers.IntegerField(help_text="Computations started.")
    requested_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class ResultsApi(OrganiserApi):
    # The results of one of the organiser's collections or campaigns, reached through the
    # published access rules (no docstring: every view's OpenAPI description inherits it).

    def get_collection(self, pk: int):
        return collection_for_organiser(user=self.request.user, collection_id=pk, need=self.need)

    def get_campaign(self, pk: int):
        return campaign_for_organiser(user=self.request.user, campaign_id=pk, need=self.need)


class ResultsStatusApi(ResultsApi):
    class OutputSerializer(serializers.Serializer):
        recompute = RecomputeSerializer()
        leaderboards = serializers.ListField(child=serializers.DictField())
        reliability = serializers.ListField(child=serializers.DictField())

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        return Response(selectors.collection_results_status(collection=collection))


class ResultsRecomputeApi(ResultsApi):
    class OutputSerializer(serializers.Serializer):
        enqueued = serializers.BooleanField(
            help_text="false when it joined a recompute already pending or running"
        )
        recompute = RecomputeSerializer()

    @extend_schema(request=None, responses={202: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        enqueued = collection_results_request(collection=collection, resend=True)
        recompute = selectors.collection_recompute(collection=collection)
        return Response(
            {"enqueued": enqueued, "recompute": recompute}, status=status.HTTP_202_ACCEPTED
        )


class LeaderboardDetailApi(ResultsApi):
    class OutputSerializer(serializers.Serializer):
        measure = serializers.CharField()
        computed_at = serializers.DateTimeField()
        payload = serializers.DictField(help_text="see evaluation.services.leaderboards")

    @extend_schema(parameters=[MEASURE], responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        measure = request.query_params.get("measure", "")
        board = selectors.leaderboard_for(collection=collection, measure=measure)
        return Response(self.OutputSerializer(board).data)


class ReliabilityDetailApi(ResultsApi):
    class OutputSerializer(serializers.Serializer):
        measure = serializers.CharField()
        computed_at = serializers.DateTimeField()
        payload = serializers.DictField(help_text="G-study components and D-study curves")

    @extend_schema(parameters=[MEASURE], responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        measure = request.query_params.get("measure", "")
        study = selectors.reliability_study_for(collection=collection, measure=measure)
        return Response(self.OutputSerializer(study).data)


class MappingDetailApi(ResultsApi):
    """A campaign's stored satisfaction mapping of one measure (thesis §3.3, §4.1.2)."""

    class OutputSerializer(serializers.Serializer):
        campaign = serializers.IntegerField(source="campaign_id")
        measure = serializers.CharField()
        computed_at = serializers.DateTimeField()
        payload = serializers.DictField(help_text="see evaluation.services.mappings")

    @extend_schema(parameters=[MEASURE], responses=OutputSerializer)
    def get(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        measure = request.query_params.get("measure", "")
        mapping = selectors.campaign_mapping(campaign=campaign, measure=measure)
        return Response(self.OutputSerializer(mapping).data)


# --- settings of results (evaluation.services.settings) --------------------------------


class ResultsSettingsSerializer(serializers.Serializer):
    measures = serializers.ListField(
        child=serializers.CharField(max_length=200), max_length=20,
        help_text="Leaderboard measures; empty: CG@5 and DCG@5 on each scale judged",
    )  # fmt: skip
    test = serializers.ChoiceField(choices=ResultsConfig.TESTS)
    adjustment = serializers.ChoiceField(choices=ResultsConfig.ADJUSTMENTS)
    resamples = serializers.IntegerField(min_value=1)
    seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    alpha = serializers.FloatField()
    reliability_target = serializers.FloatField()
    judged_only = serializers.BooleanField(
        help_text="Score each list with its unjudged clips left out (trec_eval -J)"
    )


class ResultsSettingsApi(ResultsApi):
    """How the collection's results are computed (defaults until someone saves them)."""

    @extend_schema(responses=ResultsSettingsSerializer)
    def get(self, request, collection_id: int):
        config = ResultsConfig.for_collection(self.get_collection(collection_id))
        return Response(ResultsSettingsSerializer(config).data)


class ResultsSettingsUpdateApi(ResultsApi):
    """Change the results settings (fields left out stay); one recompute follows."""

    class OutputSerializer(serializers.Serializer):
        changed = serializers.ListField(child=serializers.CharField())
        settings = ResultsSettingsSerializer()
        recompute = RecomputeSerializer()

    @extend_schema(request=ResultsSettingsSerializer, responses=OutputSerializer)
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = ResultsSettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changed = results_config_update(collection=collection, changes=dict(data.validated_data))
        body = {
            "changed": changed,
            "settings": ResultsConfig.for_collection(collection),
            "recompute": selectors.collection_recompute(collection=collection),
        }
        return Response(self.OutputSerializer(body).data)


class MappingSettingsSerializer(serializers.Serializer):
    measures = serializers.ListField(
        child=serializers.CharField(max_length=200), max_length=20,
        help_text="Measures of the campaign's mapping; empty: those of its examples, else CG_l@5",
    )  # fmt: skip
    full_listening_only = serializers.BooleanField(
        help_text="Use only the accepted answers whose every clip was heard (the payload's "
        "listening says how many that leaves)",
    )


class MappingSettingsApi(ResultsApi):
    @extend_schema(responses=MappingSettingsSerializer)
    def get(self, request, campaign_id: int):
        config = MappingConfig.for_campaign(self.get_campaign(campaign_id))
        return Response(MappingSettingsSerializer(config).data)


class MappingSettingsUpdateApi(ResultsApi):
    """Change the measures of a campaign's mapping, or whether it uses only the answers
    whose every clip was heard (fields left out stay); one recompute of it follows."""

    class OutputSerializer(MappingSettingsSerializer):
        changed = serializers.BooleanField()
        recompute = RecomputeSerializer()

    @extend_schema(request=MappingSettingsSerializer, responses=OutputSerializer)
    def post(self, request, campaign_id: int):
        campaign = self.get_campaign(campaign_id)
        data = MappingSettingsSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changed = mapping_config_update(campaign=campaign, **data.validated_data)
        config = MappingConfig.for_campaign(campaign)
        body = {
            "changed": changed,
            "measures": config.measures,
            "full_listening_only": config.full_listening_only,
            "recompute": selectors.campaign_recompute(campaign=campaign),
        }
        return Response(self.OutputSerializer(body).data)
