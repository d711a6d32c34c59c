"""URLs of judging's REST API, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from judging import (
    apis,
    apis_campaigns,
    apis_collections,
    apis_jobs,
    apis_people,
    apis_uploads,
    crowd_apis,
)

urlpatterns = [
    path("token/", apis.TokenObtainApi.as_view(), name="token"),
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
    path("campaigns/", apis.CampaignListApi.as_view(), name="campaign_list"),
    path("campaigns/<id:campaign_id>/", apis.CampaignDetailApi.as_view(), name="campaign_detail"),
    path("campaigns/<id:campaign_id>/answers/", crowd_apis.AnswerListApi.as_view(), name="answer_list"),
    # The crowd organiser's controls (judging.crowd_apis).
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
    # A collection itself and who organises it (judging.apis_collections)
    path("collections/<id:collection_id>/update/", apis_collections.CollectionUpdateApi.as_view(), name="collection_update"),
    path("collections/<id:collection_id>/archive/", apis_collections.CollectionArchiveApi.as_view(), name="collection_archive"),
    path("collections/<id:collection_id>/shares/", apis_collections.ShareListApi.as_view(), name="share_list"),
    path("collections/<id:collection_id>/shares/create/", apis_collections.ShareCreateApi.as_view(), name="share_create"),
    path("collections/<id:collection_id>/shares/delete/", apis_collections.ShareDeleteApi.as_view(), name="share_delete"),
    # People (judging.apis_people)
    path("people/", apis_people.PeopleListApi.as_view(), name="people_list"),
    path("people/create/", apis_people.PersonCreateApi.as_view(), name="person_create"),
    path("people/<id:user_id>/invitation/", apis_people.InvitationCreateApi.as_view(), name="invitation_create"),
    # Relevance campaigns (judging.apis_campaigns)
    path("relevance-campaigns/", apis_campaigns.RelevanceCampaignListApi.as_view(), name="relevance_campaign_list"),
    path("relevance-campaigns/create/", apis_campaigns.RelevanceCampaignCreateApi.as_view(), name="relevance_campaign_create"),
    path("relevance-campaigns/<id:campaign_id>/", apis_campaigns.RelevanceCampaignDetailApi.as_view(), name="relevance_campaign_detail"),
    path("relevance-campaigns/<id:campaign_id>/settings/update/", apis_campaigns.RelevanceCampaignSettingsUpdateApi.as_view(), name="relevance_campaign_settings_update"),
    path("relevance-campaigns/<id:campaign_id>/open/", apis_campaigns.RelevanceCampaignOpenApi.as_view(), name="relevance_campaign_open"),
    path("relevance-campaigns/<id:campaign_id>/assessors/add/", apis_campaigns.RelevanceCampaignAssessorAddApi.as_view(), name="relevance_campaign_assessor_add"),
    path("relevance-campaigns/<id:campaign_id>/assessors/remove/", apis_campaigns.RelevanceCampaignAssessorRemoveApi.as_view(), name="relevance_campaign_assessor_remove"),
    # Preference campaigns' settings and the example generator (judging.apis_campaigns)
    path("campaigns/<id:campaign_id>/settings/", apis_campaigns.PreferenceCampaignSettingsApi.as_view(), name="campaign_settings"),
    path("campaigns/<id:campaign_id>/settings/update/", apis_campaigns.PreferenceCampaignSettingsUpdateApi.as_view(), name="campaign_settings_update"),
    path("campaigns/<id:campaign_id>/open/", apis_campaigns.PreferenceCampaignOpenApi.as_view(), name="campaign_open"),
    path("campaigns/<id:campaign_id>/generator/coverage/", apis_campaigns.GeneratorCoverageApi.as_view(), name="generator_coverage"),
    path("campaigns/<id:campaign_id>/generator/run/", apis_campaigns.GeneratorRunApi.as_view(), name="generator_run"),
    # Background jobs (judging.apis_jobs)
    path("jobs/<id:job_id>/", apis_jobs.JobDetailApi.as_view(), name="job_detail"),
    path("jobs/<id:job_id>/cancel/", apis_jobs.JobCancelApi.as_view(), name="job_cancel"),
    path("jobs/<id:job_id>/retry/", apis_jobs.JobRetryApi.as_view(), name="job_retry"),
    # Uploads, each imported by a background job (judging.apis_uploads)
    path("collections/<id:collection_id>/uploads/clips/", apis_uploads.ClipsUploadApi.as_view(), name="upload_clips"),
    path("collections/<id:collection_id>/uploads/runs/", apis_uploads.RunsUploadApi.as_view(), name="upload_runs"),
    path("collections/<id:collection_id>/uploads/judgments/", apis_uploads.JudgmentsUploadApi.as_view(), name="upload_judgments"),
    path("collections/<id:collection_id>/uploads/mirex/", apis_uploads.MirexUploadApi.as_view(), name="upload_mirex"),
    path("collections/<id:collection_id>/uploads/answers/", apis_uploads.AnswersUploadApi.as_view(), name="upload_answers"),
    path("collections/<id:collection_id>/uploads/answers/columns/", apis_uploads.AnswerColumnsApi.as_view(), name="upload_answer_columns"),
]  # fmt: skip
