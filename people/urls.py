"""Pages of People (``people:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from people import views as people

app_name = "people"

urlpatterns = [
    path("people/", people.people, name="people"),
    path("people/<id:user_pk>/invitation/", people.invitation_new, name="invitation_new"),
    path("invitation/<str:token>/", people.invitation, name="invitation"),
]  # fmt: skip
