from django.urls import path

from evaluation import views, views_estimates, views_optimality, views_settings

app_name = "evaluation"

urlpatterns = [
    path("collections/<id:pk>/results/", views.results_overview, name="results"),
    path("collections/<id:pk>/results/status.json", views.results_status, name="results_status"),
    path("glossary/", views.glossary, name="glossary"),
    path("collections/<id:pk>/results/recompute/", views.results_recompute, name="results_recompute"),
    path("collections/<id:pk>/results/leaderboard/", views.leaderboard, name="leaderboard"),
    path("collections/<id:pk>/results/leaderboard.<str:fmt>", views.leaderboard_export, name="leaderboard_export"),
    path("collections/<id:pk>/results/significance/", views.significance, name="significance"),
    path("collections/<id:pk>/results/systems/<id:system_id>/", views.system_detail, name="system"),
    path("collections/<id:pk>/results/reliability/", views.reliability, name="reliability"),
    path("collections/<id:pk>/results/choosing-a-test/", views_optimality.optimality, name="optimality"),
    path("collections/<id:pk>/results/choosing-a-test/compute/", views_optimality.optimality_compute, name="optimality_compute"),
    path("collections/<id:pk>/results/mapping/", views.mapping, name="mapping"),
    path("collections/<id:pk>/results/mapping/recompute/", views.mapping_recompute, name="mapping_recompute"),
    path("collections/<id:pk>/results/mapping.<str:fmt>", views.mapping_export, name="mapping_export"),
    path("collections/<id:pk>/results/<str:page>/plots/<str:plot>.csv", views.plot_csv, name="plot_csv"),
    path("collections/<id:pk>/results/settings/", views_settings.results_settings, name="results_settings"),
    path("collections/<id:pk>/results/estimated/", views_estimates.estimated_leaderboard, name="estimated_leaderboard"),
    path("relevance-campaigns/<id:pk>/estimates/", views_estimates.campaign_estimate, name="campaign_estimate"),
]  # fmt: skip
