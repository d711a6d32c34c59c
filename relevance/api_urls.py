"""The REST API of Relevance judging, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from relevance import apis as apis_campaigns

urlpatterns = [
    path("relevance-campaigns/", apis_campaigns.RelevanceCampaignListApi.as_view(), name="relevance_campaign_list"),
    path("relevance-campaigns/create/", apis_campaigns.RelevanceCampaignCreateApi.as_view(), name="relevance_campaign_create"),
    path("relevance-campaigns/<id:campaign_id>/", apis_campaigns.RelevanceCampaignDetailApi.as_view(), name="relevance_campaign_detail"),
    path("relevance-campaigns/<id:campaign_id>/settings/update/", apis_campaigns.RelevanceCampaignSettingsUpdateApi.as_view(), name="relevance_campaign_settings_update"),
    path("relevance-campaigns/<id:campaign_id>/open/", apis_campaigns.RelevanceCampaignOpenApi.as_view(), name="relevance_campaign_open"),
    path("relevance-campaigns/<id:campaign_id>/assessors/add/", apis_campaigns.RelevanceCampaignAssessorAddApi.as_view(), name="relevance_campaign_assessor_add"),
    path("relevance-campaigns/<id:campaign_id>/assessors/remove/", apis_campaigns.RelevanceCampaignAssessorRemoveApi.as_view(), name="relevance_campaign_assessor_remove"),
]  # fmt: skip
