"""Pages of Uploads (``ingest:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from ingest import views as uploads

app_name = "ingest"

urlpatterns = [
    path("collections/<id:pk>/uploads/", uploads.upload_index, name="uploads"),
    path("collections/<id:pk>/uploads/<slug:kind>/", uploads.upload_new, name="upload_new"),
]  # fmt: skip
