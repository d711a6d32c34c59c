"""The base of the REST API on a collection's rows: the collection through the one access
rule (:mod:`catalog.selectors.access`: another organiser's collection is a 404, as if it
did not exist), searches as long as the pages allow, clip and query ids checked."""

from __future__ import annotations

from rest_framework import serializers

from catalog import selectors
from catalog.models import Clip, Collection
from catalog.search import MAX_SEARCH_LENGTH
from common.apis import OrganiserApi
from common.validation import column_length, identifier_validator

ID_MAX_LENGTH = column_length(Clip, "external_id")


def id_field(**kwargs) -> serializers.CharField:
    """A clip or query id, checked by :mod:`common.validation` (no whitespace)."""
    return serializers.CharField(
        max_length=ID_MAX_LENGTH, validators=[identifier_validator(ID_MAX_LENGTH)], **kwargs
    )


class CollectionApi(OrganiserApi):
    # An API view on one of the organiser's collections (``collection_id`` in its path).
    # No docstring: the OpenAPI description of every view below would inherit it.

    def get_collection(self, pk: int) -> Collection:
        return selectors.collection_for_organiser(
            user=self.request.user, collection_id=pk, need=self.need
        )

    @property
    def search(self) -> str:
        """The ``q`` parameter of list APIs (cut to the longest search the page allows)."""
        return self.request.query_params.get("q", "")[:MAX_SEARCH_LENGTH]
