"""Pages of Crowd preference judging (``crowd:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from crowd.views import campaign_new, generator
from crowd.views import campaigns as crowd_campaigns
from crowd.views import headphones as crowd_headphones
from crowd.views import settings as campaign_settings
from crowd.views import tasks as crowd_tasks

app_name = "crowd"

urlpatterns = [
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
    path("t/", crowd_tasks.task_link_unknown),
    path("t/<path:rest>", crowd_tasks.task_link_unknown),
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
]  # fmt: skip
