"""REST API for a collection's data (DRF): one ``APIView`` per operation, thin.

Every endpoint needs an organiser (token or session authentication) and reads only
through :mod:`catalog.selectors`, so it only ever sees the organiser's own collections
(:mod:`catalog.selectors.access`): another organiser's collection is a 404, as if it
did not exist. Writes go through :mod:`catalog.services.collections`; their validation
errors come back as ``400 {"detail": "..."}`` naming the bad item, by the project's one
exception handler (:mod:`config.api_errors`).

This module is long because it holds one small ``APIView`` per operation on a
collection's data (collections, clips, queries, systems, runs, judgments, judgment
sources) with their serializers; each view is a few lines over a selector or a service.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog import selectors
from catalog.apis.base import ID_MAX_LENGTH, CollectionApi, id_field
from catalog.models import Clip, Collection, JudgmentSource, RelevanceJudgment, System
from catalog.services.collections import (
    clips_create,
    collection_create,
    judgments_upsert,
    queries_create,
    run_replace,
    system_create,
)
from catalog.services.sources import judgment_source_set_status
from common.apis import name_field, text_field
from common.validation import check_text


class CollectionOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Collection
        fields = ["id", "name", "description", "created_at", "archived_at"]


class CollectionListApi(CollectionApi):
    OutputSerializer = CollectionOutputSerializer

    @extend_schema(responses=CollectionOutputSerializer(many=True))
    def get(self, request):
        collections = selectors.collections_for_organiser(user=request.user, need="read").order_by(
            "pk"
        )
        return Response(self.OutputSerializer(collections, many=True).data)


class CollectionCreateApi(CollectionApi):
    class InputSerializer(serializers.Serializer):
        name = name_field(Collection, "name")
        description = text_field(Collection, "description", required=False, default="")

    OutputSerializer = CollectionOutputSerializer

    @extend_schema(request=InputSerializer, responses={201: CollectionOutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        collection = collection_create(owner=request.user, **data.validated_data)
        return Response(self.OutputSerializer(collection).data, status=status.HTTP_201_CREATED)


class CollectionDetailApi(CollectionApi):
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
    external_id = id_field()
    title = name_field(Clip, "title", required=False)
    artist = name_field(Clip, "artist", required=False)
    genre = name_field(Clip, "genre", required=False)
    duration = serializers.FloatField(required=False, allow_null=True, min_value=0)
    has_audio = serializers.BooleanField(read_only=True)


SEARCH = OpenApiParameter(
    "q", OpenApiTypes.STR, description="Only rows whose id, title or artist (systems: name or "
    "team) starts with this, case-insensitive; as the collection page's search box.",
)  # fmt: skip


class ClipListApi(CollectionApi):
    OutputSerializer = ClipSerializer

    @extend_schema(parameters=[SEARCH], responses=ClipSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        clips = selectors.collection_clips(collection=collection, search=self.search)
        return self.paginate(clips, self.OutputSerializer)


class ClipCreateApi(CollectionApi):
    """Clips by id: idempotent (a clip already there with the same metadata is ``present``);
    a clip already there with other metadata is a 409 and nothing is created."""

    class InputSerializer(serializers.Serializer):
        clips = ClipSerializer(many=True, allow_empty=False)

    class OutputSerializer(serializers.Serializer):
        created = serializers.IntegerField()
        present = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created, present = clips_create(collection=collection, clips=data.validated_data["clips"])
        return Response(
            {"created": created, "present": present},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class QuerySerializer(serializers.Serializer):
    clip = serializers.CharField(source="clip.external_id")


class QueryListApi(CollectionApi):
    OutputSerializer = QuerySerializer

    @extend_schema(parameters=[SEARCH], responses=QuerySerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        queries = selectors.collection_queries(collection=collection, search=self.search)
        return self.paginate(queries, QuerySerializer)


class QueryCreateApi(CollectionApi):
    class InputSerializer(serializers.Serializer):
        clips = serializers.ListField(child=id_field(), allow_empty=False)

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


class SystemListApi(CollectionApi):
    OutputSerializer = SystemSerializer

    @extend_schema(parameters=[SEARCH], responses=SystemSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        systems = selectors.collection_systems(collection=collection, search=self.search)
        return Response(SystemSerializer(systems, many=True).data)


class SystemCreateApi(CollectionApi):
    class InputSerializer(serializers.Serializer):
        name = name_field(System, "name")
        team = name_field(System, "team", required=False, default="")

    @extend_schema(request=InputSerializer, responses={201: SystemSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        system, created = system_create(collection=collection, **data.validated_data)
        return Response(
            SystemSerializer(system).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class RunSerializer(serializers.Serializer):
    system = serializers.CharField()
    rankings = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="{query clip id: [clip id, …]} with the best clip first.",
    )


class RunDetailApi(CollectionApi):
    OutputSerializer = RunSerializer

    @extend_schema(responses=RunSerializer)
    def get(self, request, collection_id: int, system_id: int):
        collection = self.get_collection(collection_id)
        system = selectors.collection_system(collection=collection, system_id=system_id)
        rankings = selectors.system_rankings(system=system)
        return Response({"system": system.name, "rankings": rankings})


class RunReplaceApi(CollectionApi):
    class InputSerializer(serializers.Serializer):
        rankings = serializers.DictField(
            child=serializers.ListField(child=id_field(), allow_empty=False),
            allow_empty=False,
            help_text="{query clip id: [clip id, …]}, best first; other queries keep their lists.",
        )

        def validate_rankings(self, rankings):
            for query in rankings:
                check_text(query, what="query id", kind="identifier", max_length=ID_MAX_LENGTH)
            return rankings

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
    query = id_field()
    clip = id_field()
    broad = serializers.IntegerField(min_value=0, max_value=2, required=False, allow_null=True)
    fine = serializers.IntegerField(min_value=0, max_value=100, required=False, allow_null=True)


class JudgmentListApi(CollectionApi):
    class OutputSerializer(serializers.ModelSerializer):
        query = serializers.CharField(source="query.clip.external_id")
        clip = serializers.CharField(source="clip.external_id")
        assessor = serializers.CharField(source="assessor.username", default=None)
        source = serializers.CharField(source="source.name")

        class Meta:
            model = RelevanceJudgment
            fields = ["query", "clip", "broad", "fine", "assessor", "source", "updated_at"]

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        judgments = selectors.collection_judgments(collection=collection)
        return self.paginate(judgments, self.OutputSerializer)


class JudgmentCreateApi(CollectionApi):
    """Judgments into one named judgment source of the collection.

    Sending the same judgments again changes nothing. A judgment the source already holds
    with other values is changed only with ``"replace": true``; without it the answer is
    ``409`` saying what would change, and nothing is written. Other sources are never
    touched, and a relevance campaign's source cannot be written.
    """

    class InputSerializer(serializers.Serializer):
        judgments = JudgmentSerializer(many=True, allow_empty=False)
        source = name_field(
            JudgmentSource, "name", required=False, default="",
            help_text="The judgment source to write into (default: api:<your username>).",
        )  # fmt: skip
        replace = serializers.BooleanField(
            default=False, help_text="Change judgments the source already holds."
        )

    class OutputSerializer(serializers.Serializer):
        source = serializers.CharField()
        source_created = serializers.BooleanField()
        created = serializers.IntegerField()
        updated = serializers.IntegerField()
        unchanged = serializers.IntegerField()
        kept = serializers.IntegerField(help_text="Judgments of the source not in this request.")

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user.get_username()
        write = judgments_upsert(
            collection=collection,
            judgments=data.validated_data["judgments"],
            source=data.validated_data["source"] or f"api:{user}",
            replace=data.validated_data["replace"],
            origin=f"REST API, {user}",
        )
        body = {"source": write.source.name, "source_created": write.source_created,
                "created": write.created, "updated": write.updated,
                "unchanged": write.unchanged, "kept": write.kept}  # fmt: skip
        return Response(body, status=status.HTTP_201_CREATED)


class JudgmentSourceSerializer(serializers.ModelSerializer):
    counts = serializers.BooleanField(read_only=True)
    judgments = serializers.IntegerField(source="judgment_count", read_only=True)
    relevance_campaign = serializers.IntegerField(
        source="relevance_campaign_id", read_only=True, allow_null=True
    )

    class Meta:
        model = JudgmentSource
        fields = ["id", "name", "kind", "status", "counts", "judgments", "relevance_campaign",
                  "origin", "created_at", "updated_at"]  # fmt: skip


class JudgmentSourceListApi(CollectionApi):
    """The collection's judgment sources: which count in results (official) and which do
    not (pilot), with the consolidation rule applied to the counting ones."""

    class OutputSerializer(serializers.Serializer):
        consolidation = serializers.CharField()
        sources = JudgmentSourceSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        sources = selectors.collection_judgment_sources_with_counts(collection=collection)
        return Response(
            {
                "consolidation": selectors.CONSOLIDATION_RULE,
                "sources": JudgmentSourceSerializer(sources, many=True).data,
            }
        )


class JudgmentSourceStatusApi(CollectionApi):
    """Make a source official (it counts) or a pilot (left out of results). A change asks
    for one coalesced recompute of the collection's results."""

    class InputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=JudgmentSource.STATUSES)

    class OutputSerializer(serializers.Serializer):
        changed = serializers.BooleanField()
        source = JudgmentSourceSerializer()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request, collection_id: int, source_id: int):
        collection = self.get_collection(collection_id)
        source = selectors.collection_judgment_source(collection=collection, source_id=source_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = judgment_source_set_status(source=source, status=data.validated_data["status"])
        source = selectors.collection_judgment_sources_with_counts(collection=collection).get(
            pk=source.pk
        )
        return Response({"changed": changed, "source": JudgmentSourceSerializer(source).data})
