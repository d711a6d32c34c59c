"""REST API of a collection itself: rename, describe, archive, and who else organises it.

The data inside a collection (clips, queries, systems, runs, judgments) is
:mod:`catalog.apis.contents`. Sharing needs ``need="share"`` (the owner); the rest ``write``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog import selectors
from catalog.apis.base import CollectionApi
from catalog.apis.contents import CollectionOutputSerializer
from catalog.models import CollectionShare
from catalog.services.collections import collection_archive, collection_update
from catalog.services.sharing import collection_share, collection_unshare


class CollectionUpdateApi(CollectionApi):
    """Rename and/or describe a collection (fields left out stay as they are)."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False)
        description = serializers.CharField(max_length=5000, required=False, allow_blank=True)

    @extend_schema(request=InputSerializer, responses=CollectionOutputSerializer)
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        collection_update(collection=collection, **data.validated_data)
        return Response(CollectionOutputSerializer(collection).data)


class CollectionArchiveApi(CollectionApi):
    """Archive (``true``) or bring back (``false``) a collection."""

    class InputSerializer(serializers.Serializer):
        archived = serializers.BooleanField()

    @extend_schema(request=InputSerializer, responses=CollectionOutputSerializer)
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        collection_archive(collection=collection, archived=data.validated_data["archived"])
        return Response(CollectionOutputSerializer(collection).data)


class ShareSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    access = serializers.ChoiceField(choices=CollectionShare.ACCESS)
    created_at = serializers.DateTimeField()


class ShareOwnerApi(CollectionApi):
    def get_owned(self, collection_id: int):
        return selectors.collection_for_organiser(
            user=self.request.user, collection_id=collection_id, need="share"
        )


class ShareListApi(ShareOwnerApi):
    """Who the collection is shared with (the owner only)."""

    @extend_schema(responses=ShareSerializer(many=True))
    def get(self, request, collection_id: int):
        collection = self.get_owned(collection_id)
        shares = selectors.collection_shares(collection=collection)
        return Response(ShareSerializer(shares, many=True).data)


class ShareCreateApi(ShareOwnerApi):
    """Share with an organiser, read-only or in full; sharing again changes the access."""

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        access = serializers.ChoiceField(choices=CollectionShare.ACCESS)

    @extend_schema(request=InputSerializer, responses={201: ShareSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_owned(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        share = collection_share(collection=collection, **data.validated_data)
        return Response(ShareSerializer(share).data, status=status.HTTP_201_CREATED)


class ShareDeleteApi(ShareOwnerApi):
    """Stop sharing with an organiser."""

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)

    class OutputSerializer(serializers.Serializer):
        removed = serializers.BooleanField(help_text="false when it was not shared with them")

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request, collection_id: int):
        collection = self.get_owned(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        removed = collection_unshare(collection=collection, **data.validated_data)
        return Response({"removed": removed})
