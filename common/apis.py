"""The REST API's base (DRF): organisers only, one operation per method, a malformed body
refused first, nested serializers named after their view, long lists in pages.

Every app's API views derive from :class:`OrganiserApi`; those on a collection's rows
from :class:`catalog.apis.base.CollectionApi`, which adds the one access rule. Errors
are mapped to HTTP once, by :mod:`config.api_errors`.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.views import APIView

from common.needs import Need, need_for_method
from common.roles import is_organiser
from common.validation import column_length, name_validator, text_validator


def name_field(model, field: str, *, required: bool = True, **kwargs) -> serializers.CharField:
    """A one-line name as long as its model column allows (:mod:`common.validation`)."""
    limit = column_length(model, field)
    return serializers.CharField(
        max_length=limit, validators=[name_validator(limit)], required=required,
        allow_blank=not required, **kwargs,
    )  # fmt: skip


def text_field(model, field: str, **kwargs) -> serializers.CharField:
    """Free text (line breaks allowed), bounded by :mod:`common.validation`."""
    limit = column_length(model, field)
    return serializers.CharField(
        max_length=limit, validators=[text_validator(limit)], allow_blank=True, **kwargs
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


class OpenSerializer(serializers.Serializer):  # opens or closes a campaign of either kind
    is_open = serializers.BooleanField(help_text="false closes: no new work is handed out")


class OrganiserApi(APIView):
    permission_classes = [IsAuthenticated, IsOrganiser]
    schema = NestedSerializerSchema()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method in ("POST", "PUT", "PATCH"):
            request.data  # noqa: B018 - a malformed body is a 400 even where no field is read

    @property
    def need(self) -> Need:
        """One operation per method: GET reads, every other method writes."""
        return need_for_method(self.request.method)

    def paginator_for_request(self) -> LimitOffsetPagination:
        paginator = LimitOffsetPagination()
        paginator.default_limit, paginator.max_limit = 1000, 10_000
        return paginator

    def paginate(self, queryset, serializer_class):
        paginator = self.paginator_for_request()
        page = paginator.paginate_queryset(queryset, self.request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)
