"""Organiser results pages render stored results; exports and plot data download; access."""

import csv
import io
import json
from urllib.parse import quote

import pytest

from evaluation.models import Recompute
from tests.personas import PASSWORD
from tests.results_payloads import MEASURE, store_results

pytestmark = pytest.mark.django_db
M = quote(MEASURE)


@pytest.fixture
def organiser(client, personas):
    client.login(username=personas.organiser.username, password=PASSWORD)
    store_results(personas.collection)
    return client


def url(personas, rest: str) -> str:
    return f"/collections/{personas.collection.pk}/results/{rest}"


def test_the_overview_links_each_leaderboard_and_study(organiser, personas):
    response = organiser.get(url(personas, ""))
    assert response.status_code == 200
    assert (
        f'href="/collections/{personas.collection.pk}/results/leaderboard/?measure={M}"'
        in response.content.decode()
    )
    assert "Eρ² = 0.8000" in response.content.decode()


def test_the_leaderboard_shows_systems_report_groups_and_inline_plots(organiser, personas):
    page = organiser.get(url(personas, f"leaderboard/?measure={M}")).content.decode()
    assert "Alpha: CG(scale=fine)@5 = 0.6000 ± 0.0500" in page
    assert page.index(">Alpha</a>") < page.index(">Beta</a>") < page.index(">Gamma</a>")
    assert page.count('<svg role="img"') == 3  # means, P(Sat), significance
    assert "the published mapping of thesis Table 4.3" in page
    assert "(the published default)" in page
    assert 'data-group="1"' in page and 'data-group="2"' in page
    assert "Computed at" in page


def system_url(personas, name: str) -> str:
    return url(personas, f"systems/{personas.collection.systems.get(name=name).pk}/?measure={M}")


def test_the_system_page_shows_per_query_scores_and_two_distributions(organiser, personas):
    page = organiser.get(system_url(personas, "Beta")).content.decode()
    assert page.count('<svg role="img"') == 2
    assert "<td>q2</td><td>0.6000</td><td>0.7000</td>" in page


def test_the_reliability_page_shows_components_and_the_d_study(organiser, personas):
    page = organiser.get(url(personas, f"reliability/?measure={M}")).content.decode()
    assert "10 queries reach Eρ² = 0.95" in page
    assert 'data-plot="dstudy"' in page


def test_each_plot_downloads_the_data_it_draws(organiser, personas):
    response = organiser.get(url(personas, f"leaderboard/plots/means.csv?measure={M}"))
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["label", "mean", "low", "high"]
    assert rows[1][:2] == ["Alpha", "0.6"]
    dstudy = organiser.get(url(personas, f"reliability/plots/dstudy.csv?measure={M}"))
    assert dstudy.content.decode().splitlines()[0] == "x,Eρ²,Φ"
    system = organiser.get(url(personas, f"system/plots/lambda.csv?measure={M}&system=Beta"))
    assert system.status_code == 200


def test_the_leaderboard_exports_as_csv_tables_and_json(organiser, personas):
    systems = organiser.get(url(personas, f"leaderboard.csv?measure={M}")).content.decode()
    assert systems.splitlines()[1].startswith("1,Alpha,0.6,")
    pairs = organiser.get(
        url(personas, f"leaderboard.csv?measure={M}&table=pairs")
    ).content.decode()
    # The last column names the judgment sources (unrecorded: a payload made without them).
    assert pairs.splitlines()[0] == (
        "a,b,delta,ci_low,ci_high,p,p_adjusted,delta_psat,judgment_sources"
    )
    assert pairs.splitlines()[1].endswith(",unrecorded")
    scores = organiser.get(
        url(personas, f"leaderboard.csv?measure={M}&table=scores")
    ).content.decode()
    assert "Gamma,q2,0.3," in scores
    data = json.loads(organiser.get(url(personas, f"leaderboard.json?measure={M}")).content)
    assert data["collection"] == "Tiny collection" and len(data["pairs"]) == 3


def test_the_status_document_reports_a_running_recompute(organiser, personas):
    Recompute.objects.create(
        kind="collection", target_id=personas.collection.pk, status="running", progress=0.4,
        message="CG(scale=fine)@5: bootstrap test on every pair",
    )  # fmt: skip
    status = organiser.get(url(personas, "status.json")).json()
    assert status["recompute"]["active"] is True
    assert status["recompute"]["progress"] == 0.4
    assert status["leaderboards"][0]["measure"] == MEASURE
    page = organiser.get(url(personas, f"leaderboard/?measure={M}")).content.decode()
    assert 'data-active="true"' in page


def test_an_unknown_measure_or_system_is_a_404(organiser, personas):
    assert organiser.get(url(personas, "leaderboard/?measure=P@5")).status_code == 404
    assert organiser.get(url(personas, f"systems/999999/?measure={M}")).status_code == 404
    assert organiser.get(url(personas, f"systems/Beta/?measure={M}")).status_code == 404
    # A system of the collection that is not on this leaderboard (S1 has no run).
    assert organiser.get(system_url(personas, "S1")).status_code == 404
    assert (
        organiser.get(url(personas, f"leaderboard/plots/nope.csv?measure={M}")).status_code == 404
    )


def test_another_organiser_cannot_see_the_results(client, personas):
    store_results(personas.collection)
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    assert client.get(url(personas, f"leaderboard/?measure={M}")).status_code == 404
    assert client.get(url(personas, "status.json")).status_code == 404


def test_the_results_api_serves_the_stored_leaderboard(personas):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    store_results(personas.collection)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=personas.organiser).key}")
    pk = personas.collection.pk
    board = api.get(f"/api/collections/{pk}/leaderboard/?measure={M}").json()
    assert board["payload"]["systems"] == ["Alpha", "Beta", "Gamma"]
    assert (
        api.get(f"/api/collections/{pk}/reliability/?measure={M}").json()["payload"]["needed"][
            "erho2"
        ]
        == 10
    )
    assert api.get(f"/api/collections/{pk}/results/").json()["recompute"]["status"] == "idle"


@pytest.mark.parametrize("name", ["A/B", "../..", "a?b#c", "50% / 100%", "x\\y"])
def test_a_system_whose_name_a_url_cannot_carry_has_its_pages(client, personas, name):
    """Names with "/" (accepted by import_runs and the API) used to make every results
    page of the collection a 500 (NoReverseMatch): systems are addressed by id."""
    client.login(username=personas.organiser.username, password=PASSWORD)
    store_results(personas.collection, systems=(name, "Beta", "Gamma"))
    board = client.get(url(personas, f"leaderboard/?measure={M}"))
    assert board.status_code == 200
    link = system_url(personas, name)
    assert f'href="{link.replace("&", "&amp;")}"' in board.content.decode()
    page = client.get(link)
    assert page.status_code == 200
    assert "<td>q2</td><td>0.7000</td>" in page.content.decode()  # scores[0] of the payload
    assert client.get(url(personas, "")).status_code == 200
