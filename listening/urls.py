"""Pages of Listening (``listening:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from listening.views import listening_copies as listening

app_name = "listening"

urlpatterns = [
    path(
        "collections/<id:pk>/listening/",
        listening.collection_listening,
        name="collection_listening",
    ),
]  # fmt: skip
