"""The admin's pages of the models that lived in ``judging`` (issue 30): a bookmark from
before the move is a permanent redirect to the same page under the model's app now."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    return client


def test_an_old_change_page_of_the_admin_leads_to_the_same_page_of_the_models_app(admin_client):
    response = admin_client.get("/admin/judging/collection/7/change/?_changelist_filters=q%3Dx")

    assert response.status_code == 301
    assert response["Location"] == "/admin/catalog/collection/7/change/?_changelist_filters=q%3Dx"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/admin/judging/worker/", "/admin/crowd/worker/"),
        ("/admin/judging/relevancecampaign/add/", "/admin/relevance/relevancecampaign/add/"),
        ("/admin/judging/job/3/history/", "/admin/work/job/3/history/"),
        ("/admin/judging/invitation/", "/admin/people/invitation/"),
    ],
)
def test_every_moved_models_list_and_pages_follow_it(admin_client, old, new):
    response = admin_client.get(old)

    assert (response.status_code, response["Location"]) == (301, new)
    assert admin_client.get(new).status_code in (200, 302)  # the page is there (302: a bad pk)


def test_the_old_index_of_judgings_models_leads_to_the_admins_index(admin_client):
    response = admin_client.get("/admin/judging/")

    assert (response.status_code, response["Location"]) == (301, "/admin/")


def test_a_name_that_was_never_a_model_of_judging_is_a_404(admin_client):
    assert admin_client.get("/admin/judging/leaderboard/").status_code == 404
    assert admin_client.get("/admin/judging/nothing/1/change/").status_code == 404
