"""Pages of Relevance judging (``relevance:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from relevance.views import assessors, rankings
from relevance.views import campaigns as relevance_campaigns
from relevance.views import headphones as assessor_headphones
from relevance.views import settings as campaign_settings

app_name = "relevance"

urlpatterns = [
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
        "ranking-campaigns/new/",
        relevance_campaigns.ranking_campaign_new,
        name="ranking_campaign_new",
    ),
    path(
        "relevance-campaigns/<id:pk>/",
        relevance_campaigns.relevance_campaign_detail,
        name="relevance_campaign",
    ),
    path(
        "relevance-campaigns/<id:pk>/qrels",
        relevance_campaigns.relevance_campaign_qrels,
        name="relevance_campaign_qrels",
    ),
    path(
        "relevance-campaigns/<id:pk>/judgments.csv",
        relevance_campaigns.relevance_campaign_csv,
        name="relevance_campaign_csv",
    ),
    path("judge/campaigns/<id:pk>/next/", assessors.assignment_next_view, name="assignment_next"),
    path("judge/assignments/<id:pk>/", assessors.assignment_page, name="assignment"),
    path("judge/assignments/<id:pk>/judgments", assessors.judgment_save_api, name="judgment_save"),
    path("judge/assignments/<id:pk>/ranking", rankings.ranking_save_api, name="ranking_save"),
    path(
        "judge/assignments/<id:pk>/audio/<str:which>",
        assessors.assignment_audio,
        name="assignment_audio",
    ),
    path(
        "judge/campaigns/<id:pk>/headphones/",
        assessor_headphones.assessor_headphones,
        name="assessor_headphones",
    ),
    path(
        "judge/campaigns/<id:pk>/headphones/calibration",
        assessor_headphones.assessor_headphones_calibration,
        name="assessor_headphones_calibration",
    ),
    path(
        "judge/campaigns/<id:pk>/headphones/trial/",
        assessor_headphones.assessor_headphone_trial,
        name="assessor_headphone_trial",
    ),
    path(
        "judge/campaigns/<id:pk>/headphones/audio/<str:key>",
        assessor_headphones.assessor_headphone_audio,
        name="assessor_headphone_audio",
    ),
    path(
        "judge/campaigns/<id:pk>/headphones/again/",
        assessor_headphones.assessor_headphones_again,
        name="assessor_headphones_again",
    ),
    path(
        "relevance-campaigns/<id:pk>/settings/",
        campaign_settings.relevance_campaign_settings,
        name="relevance_campaign_settings",
    ),
    path(
        "relevance-campaigns/<id:pk>/open/",
        campaign_settings.relevance_campaign_open,
        name="relevance_campaign_open",
    ),
    path(
        "relevance-campaigns/<id:pk>/assessors/",
        campaign_settings.relevance_campaign_assessors,
        name="relevance_campaign_assessors",
    ),
    path(
        "relevance-campaigns/<id:pk>/assessors/<id:user_pk>/remove/",
        campaign_settings.relevance_campaign_assessor_remove_view,
        name="relevance_campaign_assessor_remove",
    ),
    path(
        "relevance-campaigns/<id:pk>/assessors/<id:user_pk>/headphones-again/",
        campaign_settings.relevance_campaign_headphones_again,
        name="relevance_campaign_headphones_again",
    ),
]  # fmt: skip
