"""Where a page sends a person back to is a path of this site, never a 500 (issue 28, item 4).

The issue's attacks replayed, each of which gave a 500 or left the site before
(``tests/test_form_fuzz.py`` fuzzes every field of every form on top of these):

- the results settings with a non-numeric ``campaign`` (``get_object_or_404(pk="x")``);
- a worker's Exclude, Reinstate or New browser with ``next`` a bare word
  (``NoReverseMatch``: Django's ``redirect`` took it for the name of a URL);
- a refused restore from the trash with ``back`` a bare word (500) or
  ``https://evil.example/phish`` (a 302 there);
- the delete confirmation rendering ``?back=javascript:…`` into its "Keep it" link.
"""

from __future__ import annotations

import doctest

import pytest

import common.redirects
from catalog.models import System
from catalog.services.trash import trash_put
from common.redirects import local_path
from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.personas import PASSWORD

pytestmark = pytest.mark.django_db

HOSTILE = ["word", "https://evil.example/phish", "//evil.example/x", "/\\evil.example",
           "javascript:alert(1)", " /collections/", "/a\x00b", "x" * 3000]  # fmt: skip


def test_only_paths_of_this_site_are_followed_and_the_module_examples_hold():
    assert [local_path(target) for target in HOSTILE] == [None] * len(HOSTILE)
    assert local_path("/") == "/" and local_path("/campaigns/1/workers/?page=2") is not None
    assert doctest.testmod(common.redirects).failed == 0


def test_the_results_settings_with_a_campaign_that_is_no_id_is_a_404(client, personas):
    client.force_login(personas.organiser)
    url = f"/collections/{personas.collection.pk}/results/settings/"
    for campaign in ["x", "", "²", "99999999999999999999"]:
        response = client.post(url, {"form": "mapping", "campaign": campaign})
        assert response.status_code == 404, campaign


@pytest.mark.parametrize("action", ["exclude", "reinstate", "reset-browser"])
def test_a_worker_control_with_a_hostile_next_returns_to_the_workers_page(
    client, crowd_collection, personas, action
):
    campaign = make_campaign(crowd_collection, traps=0)
    worker = Worker.objects.create(campaign=campaign, platform="generic", platform_id="w1",
                                   seed=1, browser_key="k", status="stopped")  # fmt: skip
    client.force_login(personas.organiser)
    workers = f"/campaigns/{campaign.pk}/workers/"
    for target in HOSTILE:
        response = client.post(f"{workers}{worker.pk}/{action}/", {"reason": "bot", "next": target})
        assert (response.status_code, response["Location"]) == (302, workers), target
    kept = client.post(f"{workers}{worker.pk}/{action}/", {"reason": "bot",
                                                           "next": f"{workers}?page=2"})  # fmt: skip
    assert kept["Location"] == f"{workers}?page=2"


def test_a_refused_restore_returns_to_the_page_it_came_from_only_on_this_site(
    client, crowd_collection, personas
):
    system = crowd_collection.systems.get(name="S2")
    item = trash_put(root=system, kind="system", collection=crowd_collection, by=personas.organiser)
    System.objects.create(collection=crowd_collection, name="S2")  # the restore is refused
    client.force_login(personas.organiser)
    for target in HOSTILE:
        response = client.post(f"/trash/{item.pk}/restore/", {"back": target})
        assert (response.status_code, response["Location"]) == (302, "/collections/"), target
    trash = f"/collections/{crowd_collection.pk}/trash/"
    assert client.post(f"/trash/{item.pk}/restore/", {"back": trash})["Location"] == trash


def test_the_delete_confirmations_keep_it_link_never_holds_a_hostile_link(
    client, crowd_collection, personas
):
    client.force_login(personas.organiser)
    system = crowd_collection.systems.get(name="S1")
    page = f"/collections/{crowd_collection.pk}/delete/system/{system.pk}/"
    for target in ["javascript:alert(document.cookie)", "https://evil.example/phish", "word"]:
        html = client.get(page, {"back": target}).content.decode()
        assert f'href="{crowd_collection.get_absolute_url()}">Keep it</a>' in html, target
    html = client.get(page, {"back": "/campaigns/"}).content.decode()
    assert 'href="/campaigns/">Keep it</a>' in html


def test_the_login_goes_on_only_to_a_path_of_this_site(client, personas):
    for target in ["https://evil.example/phish", "//evil.example", "http://testserver/people/"]:
        client.logout()
        response = client.post(
            f"/login/?next={target}", {"username": "olivia", "password": PASSWORD}
        )
        assert (response.status_code, response["Location"]) == (302, "/"), target
    client.logout()
    response = client.post("/login/?next=/people/", {"username": "olivia", "password": PASSWORD})
    assert response["Location"] == "/people/"
