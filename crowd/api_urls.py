"""The REST API of Crowd preference judging, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from crowd import apis as crowd_apis

urlpatterns = [
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
]  # fmt: skip
