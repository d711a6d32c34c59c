"""REST API for a collection's data (DRF): one ``APIView`` per operation, thin.

Every endpoint needs an organiser (token or session authentication) and reads only
through :mod:`judging.selectors`, so it only ever sees the organiser's own collections
(:mod:`judging.selectors.access`): another organiser's collection is a 404, as if it
did not exist. Writes go through :mod:`judging.services.collections`; their validation
errors come back as ``400 {"detail": "..."}`` naming the bad item, by the project's one
exception handler (:mod:`config.api_errors`).
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from judging import selectors
from judging.models import (
    Collection,
    PreferenceCampaign,
    RelevanceCampaign,
    RelevanceJudgment,
    System,
)
from judging.roles import is_organiser
from judging.search import MAX_SEARCH_LENGTH
from judging.services.collections import (
    clips_create,
    collection_create,
    judgments_upsert,
    queries_create,
    run_replace,
    system_create,
)


class IsOrganiser(BasePermission):
    message = "This API is for organisers; ask an administrator for the organiser role."

    def has_permission(self, request, view) -> bool:
        return is_organiser(request.user)


class NestedSerializerSchema(AutoSchema):
    """Names a view's nested ``InputSerializer``/``OutputSerializer`` after the view
    (``ClipCreateApiInput``), so that the OpenAPI components do not collide."""

    def get_serializer_name(self, serializer, direction):
        qualname = type(serializer).__qualname__
        if "." in qualname:
            return qualname.replace("Serializer", "").replace(".", "")
        return super().get_serializer_name(serializer, direction)


class OrganiserApi(APIView):
    permission_classes = [IsAuthenticated, IsOrganiser]
    schema = NestedSerializerSchema()

    @property
    def need(self) -> selectors.Need:
        """One operation per method: GET reads, every other method writes."""
        return selectors.need_for_method(self.request.method)

    def get_collection(self, pk: int) -> Collection:
        return selectors.collection_for_organiser(
            user=self.request.user, collection_id=pk, need=self.need
        )

    def get_campaign(self, pk: int) -> PreferenceCampaign:
        return selectors.campaign_for_organiser(
            user=self.request.user, campaign_id=pk, need=self.need
        )

    def get_relevance_campaign(self, pk: int) -> RelevanceCampaign:
        return selectors.relevance_campaign_for_organiser(
            user=self.request.user, campaign_id=pk, need=self.need
        )

    @property
    def search(self) -> str:
        """The ``q`` parameter of list APIs (cut to the longest search the page allows)."""
        return self.request.query_params.get("q", "")[:MAX_SEARCH_LENGTH]

    def paginator_for_request(self) -> LimitOffsetPagination:
        paginator = LimitOffsetPagination()
        paginator.default_limit, paginator.max_limit = 1000, 10_000
        return paginator

    def paginate(self, queryset, serializer_class):
        paginator = self.paginator_for_request()
        page = paginator.paginate_queryset(queryset, self.request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


class TokenObtainApi(APIView):
    """An organiser's API token, from their username and password (created on first use).

    ``POST /api/token/`` with ``{"username", "password"}`` gives ``{"token"}``; send it
    as ``Authorization: Token <token>``. Only organisers get one.
    """

    authentication_classes: list = []
    permission_classes: list = []
    schema = NestedSerializerSchema()

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None:
            raise ValidationError({"detail": "Unknown username or wrong password."})
        if not is_organiser(user):
            raise PermissionDenied(IsOrganiser.message)
        token, _ = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)


class CollectionOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Collection
        fields = ["id", "name", "description", "created_at", "archived_at"]


class CollectionListApi(OrganiserApi):
    OutputSerializer = CollectionOutputSerializer

    @extend_schema(responses=CollectionOutputSerializer(many=True))
    def get(self, request):
        collections = selectors.collections_for_organiser(user=request.user, need="read").order_by(
            "pk"
        )
        return Response(self.OutputSerializer(collections, many=True).data)


class CollectionCreateApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        description = serializers.CharField(required=False, allow_blank=True, default="")

    OutputSerializer = CollectionOutputSerializer

    @extend_schema(request=InputSerializer, responses={201: CollectionOutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        collection = collection_create(owner=request.user, **data.validated_data)
        return Response(self.OutputSerializer(collection).data, status=status.HTTP_201_CREATED)


class CollectionDetailApi(OrganiserApi):
    class OutputSerializer(serializers.ModelSerializer):
        clip_count = serializers.IntegerField()
        query_count = serializers.IntegerField()
        system_count = serializers.IntegerField()

        class Meta:
            model = Collection
            fields = ["id", "name", "description", "created_at", "clip_count", "query_count",
                      "system_count"]  # fmt: skip

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = selectors.collection_with_counts(
            user=request.user, collection_id=collection_id, need="read"
        )
        return Response(self.OutputSerializer(collection).data)


class ClipSerializer(serializers.Serializer):
    external_id = serializers.CharField(max_length=200)
    title = serializers.CharField(max_length=300, required=False, allow_blank=True)
    artist = serializers.CharField(max_length=300, required=False, allow_blank=True)
    genre = serializers.CharField(max_length=200, required=False, allow_blank=True)
    duration = serializers.FloatField(required=False, allow_null=True, min_value=0)
    has_audio = serializers.BooleanField(read_only=True)


SEARCH = OpenApiParameter(
    "q", OpenApiTypes.STR, description="Only rows whose id, title or artist (systems: name or "
    "team) starts with this, case-insensitive; as the collection page's search box.",
)  # fmt: skip


class ClipListApi(OrganiserApi):
    OutputSerializer = ClipSerializer

    @extend_schema(parameters=[SEARCH], responses=ClipSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        clips = selectors.collection_clips(collection=collection, search=self.search)
        return self.paginate(clips, self.OutputSerializer)


class ClipCreateApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        clips = ClipSerializer(many=True, allow_empty=False)

    class OutputSerializer(serializers.Serializer):
        created = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        clips = clips_create(collection=collection, clips=data.validated_data["clips"])
        return Response({"created": len(clips)}, status=status.HTTP_201_CREATED)


class QuerySerializer(serializers.Serializer):
    clip = serializers.CharField(source="clip.external_id")


class QueryListApi(OrganiserApi):
    OutputSerializer = QuerySerializer

    @extend_schema(parameters=[SEARCH], responses=QuerySerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        queries = selectors.collection_queries(collection=collection, search=self.search)
        return self.paginate(queries, QuerySerializer)


class QueryCreateApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        clips = serializers.ListField(
            child=serializers.CharField(max_length=200), allow_empty=False
        )

    @extend_schema(request=InputSerializer, responses={201: QuerySerializer(many=True)})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        queries = queries_create(collection=collection, clip_ids=data.validated_data["clips"])
        return Response(QuerySerializer(queries, many=True).data, status=status.HTTP_201_CREATED)


class SystemSerializer(serializers.ModelSerializer):
    class Meta:
        model = System
        fields = ["id", "name", "team"]


class SystemListApi(OrganiserApi):
    OutputSerializer = SystemSerializer

    @extend_schema(parameters=[SEARCH], responses=SystemSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        systems = selectors.collection_systems(collection=collection, search=self.search)
        return Response(SystemSerializer(systems, many=True).data)


class SystemCreateApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        team = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    @extend_schema(request=InputSerializer, responses={201: SystemSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        system = system_create(collection=collection, **data.validated_data)
        return Response(SystemSerializer(system).data, status=status.HTTP_201_CREATED)


class RunSerializer(serializers.Serializer):
    system = serializers.CharField()
    rankings = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="{query clip id: [clip id, …]} with the best clip first.",
    )


class RunDetailApi(OrganiserApi):
    OutputSerializer = RunSerializer

    @extend_schema(responses=RunSerializer)
    def get(self, request, collection_id: int, system_id: int):
        collection = self.get_collection(collection_id)
        system = selectors.collection_system(collection=collection, system_id=system_id)
        rankings = selectors.system_rankings(system=system)
        return Response({"system": system.name, "rankings": rankings})


class RunReplaceApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        rankings = serializers.DictField(
            child=serializers.ListField(child=serializers.CharField(), allow_empty=False),
            allow_empty=False,
            help_text="{query clip id: [clip id, …]}, best first; other queries keep their lists.",
        )

    class OutputSerializer(serializers.Serializer):
        entries = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def put(self, request, collection_id: int, system_id: int):
        collection = self.get_collection(collection_id)
        system = selectors.collection_system(collection=collection, system_id=system_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = run_replace(system=system, rankings=data.validated_data["rankings"])
        return Response({"entries": entries})


class JudgmentSerializer(serializers.Serializer):
    query = serializers.CharField(max_length=200)
    clip = serializers.CharField(max_length=200)
    broad = serializers.IntegerField(min_value=0, max_value=2, required=False, allow_null=True)
    fine = serializers.IntegerField(min_value=0, max_value=100, required=False, allow_null=True)


class JudgmentListApi(OrganiserApi):
    class OutputSerializer(serializers.ModelSerializer):
        query = serializers.CharField(source="query.clip.external_id")
        clip = serializers.CharField(source="clip.external_id")
        assessor = serializers.CharField(source="assessor.username", default=None)

        class Meta:
            model = RelevanceJudgment
            fields = ["query", "clip", "broad", "fine", "assessor", "source", "updated_at"]

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        judgments = selectors.collection_judgments(collection=collection)
        return self.paginate(judgments, self.OutputSerializer)


class JudgmentCreateApi(OrganiserApi):
    class InputSerializer(serializers.Serializer):
        judgments = JudgmentSerializer(many=True, allow_empty=False)
        source = serializers.CharField(
            max_length=150, required=False, default="", help_text="Stored as api:<source>."
        )

    class OutputSerializer(serializers.Serializer):
        created = serializers.IntegerField()
        updated = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        source = f"api:{data.validated_data['source'] or request.user.get_username()}"
        created, updated = judgments_upsert(
            collection=collection, judgments=data.validated_data["judgments"], source=source
        )
        return Response({"created": created, "updated": updated}, status=status.HTTP_201_CREATED)


class CampaignSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="collection_id")
    example_count = serializers.IntegerField()
    worker_count = serializers.IntegerField()

    class Meta:
        model = PreferenceCampaign
        fields = ["id", "name", "collection", "list_length", "answers_per_example",
                  "max_answers_per_worker", "quiz_length", "trap_rate", "trust_threshold",
                  "min_trap_answers", "is_open", "created_at", "example_count", "worker_count"]  # fmt: skip


class CampaignListApi(OrganiserApi):
    OutputSerializer = CampaignSerializer

    @extend_schema(responses=CampaignSerializer(many=True))
    def get(self, request):
        campaigns = selectors.campaigns_for_organiser(user=request.user, need="read").order_by("pk")
        return Response(self.OutputSerializer(campaigns, many=True).data)


class CampaignDetailApi(OrganiserApi):
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
