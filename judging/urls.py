from django.urls import path

from judging.views import assessors, collections, relevance_campaigns

app_name = "judging"

urlpatterns = [
    path("collections/", collections.collection_list, name="collections"),
    path("collections/<int:pk>/", collections.collection_detail, name="collection"),
    path("audio/<str:token>", collections.clip_audio, name="clip_audio"),
    # Relevance campaigns: organisers
    path(
        "relevance-campaigns/",
        relevance_campaigns.relevance_campaign_list,
        name="relevance_campaigns",
    ),
    path(
        "relevance-campaigns/new/",
        relevance_campaigns.relevance_campaign_new,
        name="relevance_campaign_new",
    ),
    path(
        "relevance-campaigns/<int:pk>/",
        relevance_campaigns.relevance_campaign_detail,
        name="relevance_campaign",
    ),
    path(
        "relevance-campaigns/<int:pk>/qrels",
        relevance_campaigns.relevance_campaign_qrels,
        name="relevance_campaign_qrels",
    ),
    path(
        "relevance-campaigns/<int:pk>/judgments.csv",
        relevance_campaigns.relevance_campaign_csv,
        name="relevance_campaign_csv",
    ),
    # Relevance campaigns: assessors
    path("judge/campaigns/<int:pk>/next/", assessors.assignment_next_view, name="assignment_next"),
    path("judge/assignments/<int:pk>/", assessors.assignment_page, name="assignment"),
    path("judge/assignments/<int:pk>/judgments", assessors.judgment_save_api, name="judgment_save"),
]
