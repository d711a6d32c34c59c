"""Pages of Collections (``catalog:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from catalog.views import collections, jobs, sources, trash

app_name = "catalog"

urlpatterns = [
    path("collections/", collections.collection_list, name="collections"),
    path("collections/new/", collections.collection_new, name="collection_new"),
    path("collections/<id:pk>/", collections.collection_detail, name="collection"),
    path("audio/<str:token>", collections.clip_audio, name="clip_audio"),
    path(
        "collections/<id:pk>/judgment-sources/<id:source_pk>/status/",
        sources.judgment_source_status,
        name="judgment_source_status",
    ),
    path(
        "collections/<id:pk>/judgment-sources/<id:source_pk>/groups.txt",
        sources.judgment_source_groups,
        name="judgment_source_groups",
    ),
    path("collections/<id:pk>/edit/", collections.collection_edit, name="collection_edit"),
    path(
        "collections/<id:pk>/delete/<slug:kind>/<id:item_pk>/", trash.delete_confirm, name="delete"
    ),
    path("collections/<id:pk>/trash/", trash.trash, name="trash"),
    path("collections/<id:pk>/queries/<id:query_pk>/", collections.query_page, name="query"),
    path("trash/", trash.deleted_collections, name="deleted_collections"),
    path("trash/<id:item_pk>/restore/", trash.restore, name="trash_restore"),
    path(
        "collections/<id:pk>/archive/",
        collections.collection_archive_view,
        name="collection_archive",
    ),
    path("collections/<id:pk>/sharing/", collections.collection_sharing, name="collection_sharing"),
    path(
        "collections/<id:pk>/sharing/remove/",
        collections.collection_unshare_view,
        name="collection_unshare",
    ),
    path("jobs/<id:pk>/", jobs.job_page, name="job"),
    path("jobs/<id:pk>/status.json", jobs.job_status, name="job_status"),
    path("jobs/<id:pk>/result/", jobs.job_result, name="job_result"),
    path("jobs/<id:pk>/cancel/", jobs.job_cancel_view, name="job_cancel"),
    path("jobs/<id:pk>/retry/", jobs.job_retry_view, name="job_retry"),
]  # fmt: skip
