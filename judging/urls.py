from django.urls import path

from judging.views import collections

app_name = "judging"

urlpatterns = [
    path("collections/", collections.collection_list, name="collections"),
    path("collections/<int:pk>/", collections.collection_detail, name="collection"),
    path("audio/<str:token>", collections.clip_audio, name="clip_audio"),
]
