"""The REST API of the past-answers import, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from pastanswers import apis

urlpatterns = [
    # past answers uploaded (on ingest's upload API)
    path("collections/<id:collection_id>/uploads/answers/", apis.AnswersUploadApi.as_view(), name="upload_answers"),
    path("collections/<id:collection_id>/uploads/answers/columns/", apis.AnswerColumnsApi.as_view(), name="upload_answer_columns"),
]  # fmt: skip
