"""The REST API of Uploads, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from ingest import apis as apis_uploads

urlpatterns = [
    path("collections/<id:collection_id>/uploads/clips/", apis_uploads.ClipsUploadApi.as_view(), name="upload_clips"),
    path("collections/<id:collection_id>/uploads/runs/", apis_uploads.RunsUploadApi.as_view(), name="upload_runs"),
    path("collections/<id:collection_id>/uploads/judgments/", apis_uploads.JudgmentsUploadApi.as_view(), name="upload_judgments"),
    path("collections/<id:collection_id>/uploads/groups/", apis_uploads.GroupsUploadApi.as_view(), name="upload_groups"),
    path("collections/<id:collection_id>/uploads/pairwise/", apis_uploads.PairwiseUploadApi.as_view(), name="upload_pairwise"),
    path("collections/<id:collection_id>/uploads/mirex/", apis_uploads.MirexUploadApi.as_view(), name="upload_mirex"),
]  # fmt: skip
