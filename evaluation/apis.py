"""REST API for results: recompute status and requests, leaderboards, reliability studies.

Results are read from what the last recompute stored; nothing is computed in a request.
Measures are named in the ``measure`` query parameter (names carry ``@``, ``(`` and ``=``).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from evaluation import selectors
from evaluation.services import collection_results_request
from judging.apis import OrganiserApi

MEASURE = OpenApiParameter("measure", OpenApiTypes.STR, required=True, description="e.g. CG@5")


class RecomputeSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["idle", "pending", "running", "done", "failed"])
    active = serializers.BooleanField()
    dirty = serializers.BooleanField()
    progress = serializers.FloatField()
    message = serializers.CharField()
    error = serializers.CharField()
    runs = serializers.IntegerField()
    requested_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class ResultsStatusApi(OrganiserApi):
    class OutputSerializer(serializers.Serializer):
        recompute = RecomputeSerializer()
        leaderboards = serializers.ListField(child=serializers.DictField())
        reliability = serializers.ListField(child=serializers.DictField())

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        return Response(selectors.collection_results_status(collection=collection))


class ResultsRecomputeApi(OrganiserApi):
    class OutputSerializer(serializers.Serializer):
        enqueued = serializers.BooleanField(
            help_text="false when it joined a recompute already pending or running"
        )
        recompute = RecomputeSerializer()

    @extend_schema(request=None, responses={202: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        enqueued = collection_results_request(collection=collection)
        recompute = selectors.collection_recompute(collection=collection)
        return Response(
            {"enqueued": enqueued, "recompute": recompute}, status=status.HTTP_202_ACCEPTED
        )


class LeaderboardDetailApi(OrganiserApi):
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


class ReliabilityDetailApi(OrganiserApi):
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


class MappingDetailApi(OrganiserApi):
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
