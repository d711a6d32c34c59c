"""Pages of the past-answers import (``pastanswers:<name>``), mounted at the root by
``config/urls.py``; the upload page itself is ingest's (``ingest:upload_new`` with the kind
``answers``)."""

from django.urls import path

from pastanswers import views

app_name = "pastanswers"

urlpatterns = [
    # an upload of past answers: a CrowdFlower export's columns before its import
    path(
        "collections/<id:pk>/uploads/answers/<id:upload_pk>/columns/",
        views.upload_columns,
        name="upload_columns",
    ),
]
