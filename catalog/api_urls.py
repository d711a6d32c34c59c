"""The REST API of Collections, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from catalog.apis import collections as apis_collections
from catalog.apis import contents as apis
from catalog.apis import groups as apis_groups
from catalog.apis import jobs as apis_jobs

urlpatterns = [
    path("collections/", apis.CollectionListApi.as_view(), name="collection_list"),
    path("collections/create/", apis.CollectionCreateApi.as_view(), name="collection_create"),
    path("collections/<id:collection_id>/", apis.CollectionDetailApi.as_view(), name="collection_detail"),
    path("collections/<id:collection_id>/clips/", apis.ClipListApi.as_view(), name="clip_list"),
    path("collections/<id:collection_id>/clips/create/", apis.ClipCreateApi.as_view(), name="clip_create"),
    path("collections/<id:collection_id>/queries/", apis.QueryListApi.as_view(), name="query_list"),
    path("collections/<id:collection_id>/queries/create/", apis.QueryCreateApi.as_view(), name="query_create"),
    path("collections/<id:collection_id>/systems/", apis.SystemListApi.as_view(), name="system_list"),
    path("collections/<id:collection_id>/systems/create/", apis.SystemCreateApi.as_view(), name="system_create"),
    path("collections/<id:collection_id>/systems/<id:system_id>/run/", apis.RunDetailApi.as_view(), name="run_detail"),
    path("collections/<id:collection_id>/systems/<id:system_id>/run/replace/", apis.RunReplaceApi.as_view(), name="run_replace"),
    path("collections/<id:collection_id>/judgments/", apis.JudgmentListApi.as_view(), name="judgment_list"),
    path("collections/<id:collection_id>/judgments/create/", apis.JudgmentCreateApi.as_view(), name="judgment_create"),
    path("collections/<id:collection_id>/judgment-sources/", apis.JudgmentSourceListApi.as_view(), name="judgment_source_list"),
    path("collections/<id:collection_id>/judgment-sources/<id:source_id>/status/", apis.JudgmentSourceStatusApi.as_view(), name="judgment_source_status"),
    path("collections/<id:collection_id>/judgment-sources/<id:source_id>/groups/", apis_groups.JudgmentSourceGroupsApi.as_view(), name="judgment_source_groups"),
    path("collections/<id:collection_id>/update/", apis_collections.CollectionUpdateApi.as_view(), name="collection_update"),
    path("collections/<id:collection_id>/archive/", apis_collections.CollectionArchiveApi.as_view(), name="collection_archive"),
    path("collections/<id:collection_id>/shares/", apis_collections.ShareListApi.as_view(), name="share_list"),
    path("collections/<id:collection_id>/shares/create/", apis_collections.ShareCreateApi.as_view(), name="share_create"),
    path("collections/<id:collection_id>/shares/delete/", apis_collections.ShareDeleteApi.as_view(), name="share_delete"),
    path("jobs/<id:job_id>/", apis_jobs.JobDetailApi.as_view(), name="job_detail"),
    path("jobs/<id:job_id>/cancel/", apis_jobs.JobCancelApi.as_view(), name="job_cancel"),
    path("jobs/<id:job_id>/retry/", apis_jobs.JobRetryApi.as_view(), name="job_retry"),
]  # fmt: skip
