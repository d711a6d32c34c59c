"""REST API of a collection's "Choosing a test" study (thesis ch. 5): read what the last
recompute stored, or ask for it to be computed (the page's Compute button)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from evaluation import selectors_studies
from evaluation.apis import RecomputeSerializer, ResultsApi
from evaluation.forms import OptimalityForm
from evaluation.services.optimality import collection_optimality_request

_TRIALS = OptimalityForm.base_fields["trials"]
_RESAMPLES = OptimalityForm.base_fields["resamples"]


class OptimalityDetailApi(ResultsApi):
    class OutputSerializer(serializers.Serializer):
        trials = serializers.IntegerField(allow_null=True)
        resamples = serializers.IntegerField(allow_null=True)
        computed_at = serializers.DateTimeField(allow_null=True)
        payload = serializers.DictField(
            help_text="evaluation.core.optimality.OptimalityResult.to_dict (empty until computed)"
        )
        recompute = RecomputeSerializer()

    @extend_schema(responses=OutputSerializer)
    def get(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        study = selectors_studies.collection_optimality(collection=collection)
        return Response(
            {
                "trials": study.trials if study else None,
                "resamples": study.resamples if study else None,
                "computed_at": study.computed_at if study else None,
                "payload": study.payload if study else {},
                "recompute": selectors_studies.optimality_recompute(collection=collection),
            }
        )


class OptimalityComputeApi(ResultsApi):
    class InputSerializer(serializers.Serializer):
        trials = serializers.IntegerField(
            min_value=_TRIALS.min_value, max_value=_TRIALS.max_value, default=_TRIALS.initial
        )
        resamples = serializers.IntegerField(
            min_value=_RESAMPLES.min_value,
            max_value=_RESAMPLES.max_value,
            default=_RESAMPLES.initial,
        )

    class OutputSerializer(serializers.Serializer):
        enqueued = serializers.BooleanField()
        recompute = RecomputeSerializer()

    @extend_schema(request=InputSerializer, responses={202: OutputSerializer})
    def post(self, request, collection_id: int):
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        enqueued = collection_optimality_request(collection=collection, **data.validated_data)
        recompute = selectors_studies.optimality_recompute(collection=collection)
        return Response(
            {"enqueued": enqueued, "recompute": recompute}, status=status.HTTP_202_ACCEPTED
        )
