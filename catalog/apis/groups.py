"""REST API of ordered groups: a source's ground truth of ordered groups, to download.

``GET /api/collections/<id>/judgment-sources/<id>/groups/`` answers with the source's
groups by query and the same text the page's download gives (``NAME QUERY DOC GROUP``,
:func:`catalog.selectors.source_groups_text`), which the groups upload reads back.
Importing is an upload (``/api/collections/<id>/uploads/groups/``, :mod:`ingest.apis`).
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from catalog import selectors
from catalog.apis.base import CollectionApi


class JudgmentSourceGroupsApi(CollectionApi):
    """A source's ordered groups (group 1 the most similar), by query and as a groups file."""

    class OutputSerializer(serializers.Serializer):
        source = serializers.CharField()
        status = serializers.CharField(help_text="official: counts in results; pilot: left out")
        groups = serializers.DictField(
            child=serializers.ListField(child=serializers.ListField(child=serializers.CharField())),
            help_text="query → groups of clip ids, most similar first",
        )
        text = serializers.CharField(help_text="the groups file: NAME QUERY DOC GROUP a line")

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int, source_id: int):
        collection = self.get_collection(collection_id)
        source = selectors.collection_judgment_source(collection=collection, source_id=source_id)
        if not source.holds_groups:
            raise Http404("This source holds relevance judgments, not ordered groups.")
        return Response(
            {
                "source": source.name,
                "status": source.status,
                "groups": selectors.source_groups(source=source),
                "text": selectors.source_groups_text(source=source),
            }
        )
