"""The REST API of People, mounted under ``/api/`` by ``config/urls.py``."""

from django.urls import path

from people import apis as apis_people

urlpatterns = [
    path("token/", apis_people.TokenObtainApi.as_view(), name="token"),
    path("people/", apis_people.PeopleListApi.as_view(), name="people_list"),
    path("people/create/", apis_people.PersonCreateApi.as_view(), name="person_create"),
    path("people/<id:user_id>/invitation/", apis_people.InvitationCreateApi.as_view(), name="invitation_create"),
]  # fmt: skip
