"""REST API of uploads (multipart): what the upload pages do, each answered with its job.

``POST /api/collections/<id>/uploads/<kind>/`` with the files (form fields named as the
page's inputs) and the options answers ``202`` with the job (``/api/jobs/<id>/`` follows
it to its result). A request over the upload limit is a 413 before it is read; a file
refused before the import (extension, size, count) is a 400 naming it
(:class:`ingest.services.uploads.UploadRefused`, mapped in :mod:`config.api_errors`).
Past answers (and a CrowdFlower export's columns) are the pastanswers app's: :mod:`pastanswers.apis`.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from catalog.apis.base import CollectionApi
from catalog.apis.jobs import JobSerializer
from catalog.models import JudgmentSource
from evaluation.core.ordered_groups.quicksort import DEFAULT_MARGIN
from ingest.importers.groups import MAX_MARGIN
from ingest.importers.judgments import JUDGMENT_FORMATS, SCALES
from ingest.importers.runs import RUN_FORMATS
from ingest.models import Upload
from ingest.services.uploads import (
    ROLES,
    upload_create,
    upload_request_check,
    upload_start,
)


def with_files(kind: str):
    """Add the file fields of ``kind`` to an input serializer (for the schema and parsing;
    :func:`~ingest.services.uploads.upload_create` checks the files)."""

    def add(serializer: type[serializers.Serializer]) -> type[serializers.Serializer]:
        for role in ROLES[kind]:
            field = serializers.FileField(required=False, help_text=role.label)
            if role.many:
                field = serializers.ListField(child=field, required=False, help_text=role.label)
            serializer._declared_fields[role.name] = field
        return serializer

    return add


class SourceOptions(serializers.Serializer):
    """The options of an upload into a named judgment source: its name, a new source's
    status (official unless a subclass says otherwise) and whether it may change what the
    source holds."""

    source = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    status = serializers.ChoiceField(
        choices=JudgmentSource.STATUSES, default=JudgmentSource.OFFICIAL
    )
    replace = serializers.BooleanField(default=False)


class UploadApi(CollectionApi):
    """One kind of upload: store the files, start the import's job, answer with the job."""

    kind = ""

    def initial(self, request, *args, **kwargs):
        """The size first (413 before the body is read), then authentication and permissions
        as every API does; the body is parsed only past the access rule (not eagerly)."""
        upload_request_check(content_length=request.META.get("CONTENT_LENGTH"))
        APIView.initial(self, request, *args, **kwargs)

    def options(self, data: dict) -> dict:
        return {k: v for k, v in data.items() if k not in {r.name for r in ROLES[self.kind]}}

    def create(self, request, collection_id: int) -> Upload:
        collection = self.get_collection(collection_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        files = {role.name: request.FILES.getlist(role.name) for role in ROLES[self.kind]}
        return upload_create(
            kind=self.kind, owner=request.user, collection=collection, files=files,
            options=self.options(data.validated_data),
        )  # fmt: skip

    def post(self, request, collection_id: int):
        job = upload_start(upload=self.create(request, collection_id))
        return Response(JobSerializer(job.to_dict()).data, status=status.HTTP_202_ACCEPTED)


class ClipsUploadApi(UploadApi):
    """Audio files (.wav, .mp3, .ogg, .flac) or zips of them, and an optional metadata CSV/TSV."""

    kind = Upload.CLIPS

    @with_files(Upload.CLIPS)
    class InputSerializer(serializers.Serializer):
        pass

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)


class RunsUploadApi(UploadApi):
    """Run files: TREC runs or ranked lists (``runs_import``)."""

    kind = Upload.RUNS

    @with_files(Upload.RUNS)
    class InputSerializer(serializers.Serializer):
        format = serializers.ChoiceField(choices=RUN_FORMATS, default="auto")
        create_missing_queries = serializers.BooleanField(
            default=True, help_text="make query ids that name clips into queries (as the page does)"
        )
        create_missing_clips = serializers.BooleanField(default=False)
        replace = serializers.BooleanField(default=False)

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)


class JudgmentsUploadApi(UploadApi):
    """A judgments file (TREC qrels or ``query doc fine [broad]``) into a named source."""

    kind = Upload.JUDGMENTS

    @with_files(Upload.JUDGMENTS)
    class InputSerializer(SourceOptions):
        format = serializers.ChoiceField(choices=JUDGMENT_FORMATS, default="auto")
        scale = serializers.ChoiceField(choices=("", *SCALES), default="")
        create_missing_queries = serializers.BooleanField(
            default=True, help_text="make query ids that name clips into queries (as the page does)"
        )
        create_missing_clips = serializers.BooleanField(default=False)

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)


class GroupsUploadApi(UploadApi):
    """A groups file ``NAME QUERY DOC GROUP`` (group 1 the most similar): each name a source."""

    kind = Upload.GROUPS

    @with_files(Upload.GROUPS)
    class InputSerializer(SourceOptions):
        pass

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)


class PairwiseUploadApi(UploadApi):
    """A past pairwise study's answers CSV (query, doc A, doc B, answer, worker; Mechanical
    Turk's batch results read as they are): its groups by the three-way QuickSort, a pilot
    source by default."""

    kind = Upload.PAIRWISE

    @with_files(Upload.PAIRWISE)
    class InputSerializer(SourceOptions):
        margin = serializers.IntegerField(min_value=1, max_value=MAX_MARGIN, default=DEFAULT_MARGIN)
        status = serializers.ChoiceField(
            choices=JudgmentSource.STATUSES, default=JudgmentSource.PILOT
        )

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)


class MirexUploadApi(UploadApi):
    """A MIREX bundle: ``runs``, ``judgments`` and ``metadata`` (.tsv), or one zip ``bundle``."""

    kind = Upload.MIREX

    @with_files(Upload.MIREX)
    class InputSerializer(serializers.Serializer):
        pass

    @extend_schema(request={"multipart/form-data": InputSerializer}, responses={202: JobSerializer})
    def post(self, request, collection_id: int):
        return super().post(request, collection_id)
