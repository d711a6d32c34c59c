"""REST API of an upload of past preference answers (multipart), on ingest's upload API
(:class:`ingest.apis.UploadApi`). A CrowdFlower export's columns: ``POST
…/uploads/answers/columns/`` proposes a mapping (remembered or guessed); send it,
corrected, as ``columns`` (JSON) with the upload."""

from __future__ import annotations

import json

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from catalog.apis.jobs import JobSerializer
from ingest.apis import UploadApi, with_files
from ingest.models import Upload
from ingest.services.uploads import UploadRefused, upload_discard, upload_start
from pastanswers.services.answer_columns import (
    answer_mapping_for_api,
    answer_mapping_proposal,
    export_columns,
)


class AnswersUploadApi(UploadApi):
    """Past preference answers: Earshot's CSV, or a CrowdFlower export with its ``columns``
    (JSON of :class:`pastanswers.importers.crowdflower.ColumnMapping`; without it the
    remembered or proposed mapping is used when it fits)."""

    kind = Upload.ANSWERS

    @with_files(Upload.ANSWERS)
    class InputSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=["earshot", "crowdflower"], default="earshot")
        campaign = serializers.CharField(max_length=200, required=False, default="",
                                         allow_blank=True)  # fmt: skip
        create_missing_clips = serializers.BooleanField(default=True)
        replace = serializers.BooleanField(default=False)
        columns = serializers.CharField(required=False, help_text="the column mapping, JSON")

    def options(self, data: dict) -> dict:
        return {k: v for k, v in super().options(data).items() if k != "columns"}

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        upload = self.create(request, collection_id)
        options = None
        if upload.options.get("format") == "crowdflower":
            try:
                given = json.loads(request.data["columns"]) if "columns" in request.data else None
            except ValueError:
                upload_discard(upload=upload)
                raise UploadRefused("columns is not JSON.") from None
            try:
                mapping = answer_mapping_for_api(upload=upload, given=given)
            except UploadRefused:
                upload_discard(upload=upload)
                raise
            options = {"mapping": mapping.to_dict()}
        job = upload_start(upload=upload, options=options)
        return Response(JobSerializer(job.to_dict()).data, status=status.HTTP_202_ACCEPTED)


class AnswerColumnsApi(AnswersUploadApi):
    """The columns of a CrowdFlower export and the mapping proposed for them (nothing is imported)."""

    class OutputSerializer(serializers.Serializer):
        header = serializers.ListField(child=serializers.CharField())
        sample = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                       help_text="the first rows")  # fmt: skip
        proposal = serializers.DictField(help_text="a ColumnMapping: remembered or guessed")

    @extend_schema(
        request={"multipart/form-data": AnswersUploadApi.InputSerializer},
        responses=OutputSerializer,
    )
    def post(self, request, collection_id: int):
        upload = self.create(request, collection_id)
        try:
            header, rows = export_columns(upload=upload)
            proposal = answer_mapping_proposal(upload=upload, header=header, rows=rows)
        finally:
            upload_discard(upload=upload)
            upload.delete()
        body = {"header": header, "sample": rows[:5], "proposal": proposal.to_dict()}
        return Response(self.OutputSerializer(body).data)
