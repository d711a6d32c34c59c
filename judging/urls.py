from django.urls import path

from judging.views import (
    assessor_headphones,
    assessors,
    campaign_new,
    campaign_settings,
    collections,
    crowd_campaigns,
    crowd_headphones,
    crowd_tasks,
    generator,
    jobs,
    listening,
    people,
    relevance_campaigns,
    sources,
    trash,
    uploads,
)

app_name = "judging"

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
    # Relevance campaigns: assessors
    path("judge/campaigns/<id:pk>/next/", assessors.assignment_next_view, name="assignment_next"),
    path("judge/assignments/<id:pk>/", assessors.assignment_page, name="assignment"),
    path("judge/assignments/<id:pk>/judgments", assessors.judgment_save_api, name="judgment_save"),
    path(
        "judge/assignments/<id:pk>/audio/<str:which>",
        assessors.assignment_audio,
        name="assignment_audio",
    ),
    # ... and their headphone screen (judging.views.assessor_headphones)
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
]

# Crowd preference judging: the task link and the worker's pages (judging.views.crowd_tasks).
urlpatterns += [
    path("t/<str:token>/", crowd_tasks.task_arrive, name="task_arrive"),
    path("t/<str:token>/consent/", crowd_tasks.task_consent, name="task_consent"),
    path("t/<str:token>/task/", crowd_tasks.task, name="task"),
    path("t/<str:token>/headphones/", crowd_headphones.task_headphones, name="task_headphones"),
    path(
        "t/<str:token>/headphones/calibration",
        crowd_headphones.task_headphones_calibration,
        name="task_headphones_calibration",
    ),
    path(
        "t/<str:token>/headphones/trial/",
        crowd_headphones.task_headphone_trial,
        name="task_headphone_trial",
    ),
    path(
        "t/<str:token>/headphones/audio/<str:key>",
        crowd_headphones.task_headphone_audio,
        name="task_headphone_audio",
    ),
    path("t/<str:token>/audio/<str:key>/<str:slot>", crowd_tasks.task_audio, name="task_audio"),
    path("t/<str:token>/feedback/<str:key>/", crowd_tasks.task_feedback, name="task_feedback"),
    path("t/<str:token>/alive/<str:key>/", crowd_tasks.task_alive_view, name="task_alive"),
    path("t/<str:token>/end/", crowd_tasks.task_end, name="task_end"),
    path("t/<str:token>/heard/<str:key>/", crowd_tasks.task_heard_view, name="task_heard"),
    path("t/<str:token>/done/", crowd_tasks.task_done, name="task_done"),
    path("t/", crowd_tasks.task_link_unknown),  # the styled page of a cut link, DEBUG or not
    path("t/<path:rest>", crowd_tasks.task_link_unknown),
]

# Crowd preference judging: organiser pages (judging.views.crowd_campaigns).
urlpatterns += [
    path("campaigns/", crowd_campaigns.campaign_list, name="preference_campaigns"),
    path("campaigns/new/", campaign_new.preference_campaign_new, name="preference_campaign_new"),
    path(
        "collections/<id:collection_pk>/campaigns/new/",
        crowd_campaigns.campaign_create,
        name="preference_campaign_create",
    ),
    path("campaigns/<id:pk>/", crowd_campaigns.campaign_detail, name="preference_campaign"),
    path(
        "campaigns/<id:pk>/examples/",
        crowd_campaigns.campaign_examples,
        name="preference_campaign_examples",
    ),
    path(
        "campaigns/<id:pk>/examples/from-systems/",
        crowd_campaigns.examples_add_from_systems,
        name="preference_examples_from_systems",
    ),
    path(
        "campaigns/<id:pk>/examples/from-csv/",
        crowd_campaigns.examples_add_from_csv,
        name="preference_examples_from_csv",
    ),
    path(
        "campaigns/<id:pk>/examples/<id:example_pk>/trap/",
        crowd_campaigns.example_trap,
        name="preference_example_trap",
    ),
    path(
        "campaigns/<id:pk>/traps/fill/",
        crowd_campaigns.traps_fill,
        name="preference_traps_fill",
    ),
    path(
        "campaigns/<id:pk>/traps/<id:trap_pk>/contest/",
        crowd_campaigns.trap_contest,
        name="preference_trap_contest",
    ),
    path(
        "campaigns/<id:pk>/workers/",
        crowd_campaigns.campaign_workers,
        name="preference_campaign_workers",
    ),
    path(
        "campaigns/<id:pk>/workers/<id:worker_pk>/exclude/",
        crowd_campaigns.worker_exclude_view,
        name="preference_worker_exclude",
    ),
    path(
        "campaigns/<id:pk>/workers/<id:worker_pk>/reinstate/",
        crowd_campaigns.worker_reinstate_view,
        name="preference_worker_reinstate",
    ),
    path(
        "campaigns/<id:pk>/workers/<id:worker_pk>/reset-browser/",
        crowd_campaigns.worker_browser_reset_view,
        name="preference_worker_browser_reset",
    ),
    path(
        "campaigns/<id:pk>/answers/",
        crowd_campaigns.campaign_answers,
        name="preference_campaign_answers",
    ),
    path(
        "campaigns/<id:pk>/answers.csv",
        crowd_campaigns.campaign_answers_csv,
        name="preference_campaign_answers_csv",
    ),
    path(
        "campaigns/<id:pk>/approvals.csv",
        crowd_campaigns.campaign_approvals_csv,
        name="preference_campaign_approvals_csv",
    ),
]

# Organiser self-service: collections, sharing, people, campaign settings, generator, jobs.
urlpatterns += [
    path("collections/<id:pk>/edit/", collections.collection_edit, name="collection_edit"),
    path(
        "collections/<id:pk>/delete/<slug:kind>/<id:item_pk>/", trash.delete_confirm, name="delete"
    ),
    path("collections/<id:pk>/trash/", trash.trash, name="trash"),
    path("collections/<id:pk>/queries/<id:query_pk>/", collections.query_page, name="query"),
    path("trash/", trash.deleted_collections, name="deleted_collections"),
    path("trash/<id:item_pk>/restore/", trash.restore, name="trash_restore"),
    path(
        "collections/<id:pk>/listening/",
        listening.collection_listening,
        name="collection_listening",
    ),
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
    path("people/", people.people, name="people"),
    path("people/<id:user_pk>/invitation/", people.invitation_new, name="invitation_new"),
    path("invitation/<str:token>/", people.invitation, name="invitation"),
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
    path(
        "campaigns/<id:pk>/settings/",
        campaign_settings.preference_campaign_settings,
        name="preference_campaign_settings",
    ),
    path(
        "campaigns/<id:pk>/open/",
        campaign_settings.preference_campaign_open,
        name="preference_campaign_open",
    ),
    path("campaigns/<id:pk>/generator/", generator.generator, name="preference_generator"),
    path("jobs/<id:pk>/", jobs.job_page, name="job"),
    path("jobs/<id:pk>/status.json", jobs.job_status, name="job_status"),
    path("jobs/<id:pk>/result/", jobs.job_result, name="job_result"),
    path("jobs/<id:pk>/cancel/", jobs.job_cancel_view, name="job_cancel"),
    path("jobs/<id:pk>/retry/", jobs.job_retry_view, name="job_retry"),
]

# Uploads with progress (judging/views/uploads.py): each runs its importer as a job.
urlpatterns += [
    path("collections/<id:pk>/uploads/", uploads.upload_index, name="uploads"),
    path("collections/<id:pk>/uploads/<slug:kind>/", uploads.upload_new, name="upload_new"),
    path("collections/<id:pk>/uploads/answers/<id:upload_pk>/columns/", uploads.upload_columns, name="upload_columns"),
]  # fmt: skip
