"""URLs of judging's REST API, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from judging import apis

urlpatterns = [
    path("token/", apis.TokenObtainApi.as_view(), name="token"),
    path("collections/", apis.CollectionListApi.as_view(), name="collection_list"),
    path("collections/create/", apis.CollectionCreateApi.as_view(), name="collection_create"),
    path("collections/<int:collection_id>/", apis.CollectionDetailApi.as_view(), name="collection_detail"),
    path("collections/<int:collection_id>/clips/", apis.ClipListApi.as_view(), name="clip_list"),
    path("collections/<int:collection_id>/clips/create/", apis.ClipCreateApi.as_view(), name="clip_create"),
    path("collections/<int:collection_id>/queries/", apis.QueryListApi.as_view(), name="query_list"),
    path("collections/<int:collection_id>/queries/create/", apis.QueryCreateApi.as_view(), name="query_create"),
    path("collections/<int:collection_id>/systems/", apis.SystemListApi.as_view(), name="system_list"),
    path("collections/<int:collection_id>/systems/create/", apis.SystemCreateApi.as_view(), name="system_create"),
    path("collections/<int:collection_id>/systems/<int:system_id>/run/", apis.RunDetailApi.as_view(), name="run_detail"),
    path("collections/<int:collection_id>/systems/<int:system_id>/run/replace/", apis.RunReplaceApi.as_view(), name="run_replace"),
    path("collections/<int:collection_id>/judgments/", apis.JudgmentListApi.as_view(), name="judgment_list"),
    path("collections/<int:collection_id>/judgments/create/", apis.JudgmentCreateApi.as_view(), name="judgment_create"),
    path("collections/<int:collection_id>/judgment-sources/", apis.JudgmentSourceListApi.as_view(), name="judgment_source_list"),
    path("collections/<int:collection_id>/judgment-sources/<int:source_id>/status/", apis.JudgmentSourceStatusApi.as_view(), name="judgment_source_status"),
    path("campaigns/", apis.CampaignListApi.as_view(), name="campaign_list"),
    path("campaigns/<int:campaign_id>/", apis.CampaignDetailApi.as_view(), name="campaign_detail"),
    path("campaigns/<int:campaign_id>/answers/", apis.AnswerListApi.as_view(), name="answer_list"),
]  # fmt: skip
