"""URLs of the evaluation layer's REST API, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from evaluation import apis, apis_optimality

urlpatterns = [
    path("collections/<id:collection_id>/results/", apis.ResultsStatusApi.as_view(), name="results_status"),
    path("collections/<id:collection_id>/results/recompute/", apis.ResultsRecomputeApi.as_view(), name="results_recompute"),
    path("collections/<id:collection_id>/leaderboard/", apis.LeaderboardDetailApi.as_view(), name="leaderboard_detail"),
    path("collections/<id:collection_id>/reliability/", apis.ReliabilityDetailApi.as_view(), name="reliability_detail"),
    path("collections/<id:collection_id>/optimality/", apis_optimality.OptimalityDetailApi.as_view(), name="optimality_detail"),
    path("collections/<id:collection_id>/optimality/compute/", apis_optimality.OptimalityComputeApi.as_view(), name="optimality_compute"),
    path("campaigns/<id:campaign_id>/mapping/", apis.MappingDetailApi.as_view(), name="mapping_detail"),
    path("collections/<id:collection_id>/results/settings/", apis.ResultsSettingsApi.as_view(), name="results_settings"),
    path("collections/<id:collection_id>/results/settings/update/", apis.ResultsSettingsUpdateApi.as_view(), name="results_settings_update"),
    path("campaigns/<id:campaign_id>/mapping/settings/", apis.MappingSettingsApi.as_view(), name="mapping_settings"),
    path("campaigns/<id:campaign_id>/mapping/settings/update/", apis.MappingSettingsUpdateApi.as_view(), name="mapping_settings_update"),
]  # fmt: skip
