from django.urls import path

from judging.views import collections, crowd_tasks

app_name = "judging"

urlpatterns = [
    path("collections/", collections.collection_list, name="collections"),
    path("collections/<int:pk>/", collections.collection_detail, name="collection"),
    path("audio/<str:token>", collections.clip_audio, name="clip_audio"),
]

# Crowd preference judging: the task link and the worker's pages (judging.views.crowd_tasks).
urlpatterns += [
    path("t/<str:token>/", crowd_tasks.task_arrive, name="task_arrive"),
    path("t/<str:token>/consent/", crowd_tasks.task_consent, name="task_consent"),
    path("t/<str:token>/task/", crowd_tasks.task, name="task"),
    path("t/<str:token>/feedback/<str:key>/", crowd_tasks.task_feedback, name="task_feedback"),
    path("t/<str:token>/done/", crowd_tasks.task_done, name="task_done"),
]
