"""The REST API of Crowd preference judging, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from crowd import apis as crowd_apis
from crowd import apis_campaigns

urlpatterns = [
    path("campaigns/", apis_campaigns.CampaignListApi.as_view(), name="campaign_list"),
    path("campaigns/<id:campaign_id>/", apis_campaigns.CampaignDetailApi.as_view(), name="campaign_detail"),
    path("campaigns/<id:campaign_id>/answers/", crowd_apis.AnswerListApi.as_view(), name="answer_list"),
    path("collections/<id:collection_id>/campaigns/create/", crowd_apis.CampaignCreateApi.as_view(), name="campaign_create"),
    path("campaigns/<id:campaign_id>/examples/from-systems/", crowd_apis.ExamplesFromSystemsApi.as_view(), name="examples_from_systems"),
    path("campaigns/<id:campaign_id>/examples/from-csv/", crowd_apis.ExamplesFromCsvApi.as_view(), name="examples_from_csv"),
    path("campaigns/<id:campaign_id>/examples/<id:example_id>/trap/", crowd_apis.TrapQuestionMarkApi.as_view(), name="trap_mark"),
    path("campaigns/<id:campaign_id>/traps/", crowd_apis.TrapQuestionListApi.as_view(), name="trap_list"),
    path("campaigns/<id:campaign_id>/traps/fill/", crowd_apis.TrapPoolsFillApi.as_view(), name="traps_fill"),
    path("campaigns/<id:campaign_id>/traps/<id:trap_id>/contest/", crowd_apis.TrapQuestionContestApi.as_view(), name="trap_contest"),
    path("campaigns/<id:campaign_id>/workers/", crowd_apis.WorkerListApi.as_view(), name="worker_list"),
    path("campaigns/<id:campaign_id>/approvals/", crowd_apis.ApprovalListApi.as_view(), name="approval_list"),
    path("campaigns/<id:campaign_id>/workers/<id:worker_id>/exclude/", crowd_apis.WorkerExcludeApi.as_view(), name="worker_exclude"),
    path("campaigns/<id:campaign_id>/workers/<id:worker_id>/reinstate/", crowd_apis.WorkerReinstateApi.as_view(), name="worker_reinstate"),
    path("campaigns/<id:campaign_id>/workers/<id:worker_id>/reset-browser/", crowd_apis.WorkerBrowserResetApi.as_view(), name="worker_browser_reset"),
    # a campaign's settings, open/closed and the example generator (crowd.apis_campaigns)
    path("campaigns/<id:campaign_id>/settings/", apis_campaigns.PreferenceCampaignSettingsApi.as_view(), name="campaign_settings"),
    path("campaigns/<id:campaign_id>/settings/update/", apis_campaigns.PreferenceCampaignSettingsUpdateApi.as_view(), name="campaign_settings_update"),
    path("campaigns/<id:campaign_id>/open/", apis_campaigns.PreferenceCampaignOpenApi.as_view(), name="campaign_open"),
    path("campaigns/<id:campaign_id>/generator/coverage/", apis_campaigns.GeneratorCoverageApi.as_view(), name="generator_coverage"),
    path("campaigns/<id:campaign_id>/generator/run/", apis_campaigns.GeneratorRunApi.as_view(), name="generator_run"),
]  # fmt: skip
