"""Pages of pairs campaigns (``pairwise:<name>``), mounted at the root by ``config/urls.py``."""

from django.urls import path

from pairwise import views

app_name = "pairwise"

urlpatterns = [
    path("campaigns/pairs/new/", views.pairs_campaign_new, name="campaign_new"),
    path(
        "collections/<id:collection_pk>/campaigns/pairs/new/",
        views.pairs_campaign_create,
        name="campaign_create",
    ),
    path("campaigns/<id:pk>/sort/", views.pairs_sort, name="sort"),
]
