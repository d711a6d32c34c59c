"""Organiser results pages render stored results; exports and plot data download; access."""

import csv
import io
import json
import re
from urllib.parse import quote

import pytest
from django.utils import timezone

from catalog.models import System
from evaluation.models import Recompute, ReliabilityStudy
from evaluation.services.leaderboard_store import leaderboard_store
from tests.helpers.personas import PASSWORD
from tests.helpers.results_payloads import MEASURE, leaderboard_payload, store_results

pytestmark = pytest.mark.django_db
M = quote(MEASURE)


@pytest.fixture
def organiser(organiser, personas):
    """The organiser, with the collection's results stored."""
    store_results(personas.collection)
    return organiser


def url(personas, rest: str) -> str:
    return f"/collections/{personas.collection.pk}/results/{rest}"


def plot_specs(page: str) -> dict[str, dict]:
    """The data each plot of a page hands to evaluation/static/evaluation/plots.js, by plot name."""
    found = re.findall(
        r'<script id="plot-data-([\w-]+)" type="application/json">(.*?)</script>', page
    )
    return {name: json.loads(data) for name, data in found}


def test_the_overview_links_each_leaderboard_and_study(organiser, personas):
    response = organiser.get(url(personas, ""))
    assert response.status_code == 200
    assert (
        f'href="/collections/{personas.collection.pk}/results/leaderboard/?measure={M}"'
        in response.content.decode()
    )
    text = re.sub(r"<[^>]+>", "", response.content.decode())  # Eρ² is a glossary term (<abbr>)
    assert "Eρ² = 0.8000" in text
    assert '<abbr title="Expected generalizability coefficient' in response.content.decode()


def test_the_leaderboard_shows_systems_report_groups_and_the_data_of_its_plots(organiser, personas):
    page = organiser.get(url(personas, f"leaderboard/?measure={M}")).content.decode()
    assert "Alpha: CG(scale=fine)@5 = 0.6000 ± 0.0500" in page
    assert page.index(">Alpha</a>") < page.index(">Beta</a>") < page.index(">Gamma</a>")
    # Drawn in the browser from the stored rows (tests/helpers/results_payloads.py: Alpha's mean
    # 0.6 with CI 0.6 ± 0.05, P(Sat) 0.7 within [0.66, 0.74]); the heat map of p-values
    # is on the significance page.
    specs = plot_specs(page)
    assert list(specs) == ["means", "psat"]
    assert specs["means"]["kind"] == "intervals"
    assert specs["means"]["rows"][0] == ["Alpha", 0.6, pytest.approx(0.55), pytest.approx(0.65)]
    assert [r[0] for r in specs["psat"]["rows"]] == ["Alpha", "Beta", "Gamma"]
    assert specs["psat"]["rows"][0][1:] == pytest.approx([0.7, 0.66, 0.74])
    assert f'href="/collections/{personas.collection.pk}/results/significance/?measure={M}"' in page
    assert "the published mapping of thesis Table 4.3" in page
    assert "(the published default)" in page
    # The science of thesis §4.2.3 and §5.6.2 the payload carries: which distribution the
    # prediction intervals use, and per row the P(Sat) that 95% of new queries exceed
    # (Alpha's psat_floor, round(0.6 − 0.3, 2) = 0.30 in tests/helpers/results_payloads.py).
    assert "the empirical distribution of the per-query scores (thesis §4.2.3)" in page
    assert "and the P(Sat) that 95% of new queries exceed" in page
    assert '<td data-value="0.3">0.30</td>' in page
    assert "[0.2000, 1.0000]" in page  # Alpha's prediction interval, 0.6 ∓ 0.4 within [0, 1]
    assert 'data-group="1"' in page and 'data-group="2"' in page
    assert "Computed at" in page
    assert "<svg" not in page  # the server draws nothing


def test_the_significance_page_shows_every_pair_and_the_p_value_matrix(organiser, personas):
    page = organiser.get(url(personas, f"significance/?measure={M}")).content.decode()
    # tests/helpers/results_payloads.py: Alpha − Gamma has p = 0.001, Holm-adjusted 3 × 0.001.
    assert "<td>Alpha − Gamma</td><td>ΔCG(scale=fine)@5 = 0.4000 ± 0.0300 (p=0.001)</td>" in page
    assert page.count("<tr><td>") == 3
    spec = plot_specs(page)["pvalues"]
    assert spec["kind"] == "heatmap" and spec["labels"] == ["Alpha", "Beta", "Gamma"]
    assert spec["matrix"][0] == [None, pytest.approx(0.9), pytest.approx(0.003)]
    assert spec["matrix"][2][0] == pytest.approx(0.003)


def system_url(personas, name: str) -> str:
    return url(personas, f"systems/{personas.collection.systems.get(name=name).pk}/?measure={M}")


def test_the_system_page_shows_per_query_scores_and_two_distributions(organiser, personas):
    page = organiser.get(system_url(personas, "Beta")).content.decode()
    assert "<td>q2</td><td>0.6000</td><td>0.7000</td>" in page
    # Beta's row report, with the §5.6.2 statement (tests/helpers/results_payloads.py: 0.55 − 0.3).
    assert "95% of future queries are expected to get P(Sat) &gt; 0.25" in page
    specs = plot_specs(page)
    assert list(specs) == ["lambda", "psat"]
    # Beta's scores over the two queries are 0.5 and 0.6, its P(Sat) 0.6 and 0.7: one
    # query in each of the bins [0.5, 0.6) and [0.6, 0.7), then [0.6, 0.7) and [0.7, 0.8).
    counted = {(low, n) for low, high, n in specs["lambda"]["rows"] if n}
    assert counted == {(0.5, 1), (0.6, 1)}
    assert {(low, n) for low, high, n in specs["psat"]["rows"] if n} == {(0.6, 1), (0.7, 1)}


def test_the_reliability_page_shows_components_and_the_d_study(organiser, personas):
    page = organiser.get(url(personas, f"reliability/?measure={M}")).content.decode()
    assert "10 queries reach Eρ² = 0.95" in page
    assert 'data-plot="dstudy"' in page


def test_the_reliability_page_says_one_query_in_the_singular_and_writes_no_raw_formula(
    organiser, personas
):
    """Issue 31: "1 queries reach Eρ² = 0.95" and "systems (σ²_s)" in plain text."""
    study = ReliabilityStudy.objects.get(collection=personas.collection, measure=MEASURE)
    # The page reads "needed" as stored. A study needing 1 query for both: σ²_s = 0.02 and
    # σ²_q = σ²_e = 0.0001 give, with 1 query (eqs. 6.4, 6.5), Eρ² = 0.02 / 0.0201 = 0.995
    # and Φ = 0.02 / 0.0202 = 0.990, both ≥ 0.95.
    study.payload = {**study.payload, "needed": {"erho2": 1, "phi": 1}}
    study.save(update_fields=["payload"])
    page = organiser.get(url(personas, f"reliability/?measure={M}")).content.decode()
    assert "1 query reaches Eρ² = 0.95; 1 reaches Φ = 0.95." in page
    assert "Systems (σ<sup>2</sup><sub>s</sub>)" in page and "σ²_" not in page


def test_each_plot_downloads_the_data_it_draws(organiser, personas):
    response = organiser.get(url(personas, f"leaderboard/plots/means.csv?measure={M}"))
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["label", "mean", "low", "high"]
    assert rows[1][:2] == ["Alpha", "0.6"]
    dstudy = organiser.get(url(personas, f"reliability/plots/dstudy.csv?measure={M}"))
    assert dstudy.content.decode().splitlines()[0] == "x,Eρ²,Φ"
    system = organiser.get(url(personas, f"system/plots/lambda.csv?measure={M}&system=Beta"))
    assert system.content.decode().splitlines()[:2] == ["bin low,bin high,count", "0.0,0.1,0"]
    pvalues = organiser.get(url(personas, f"significance/plots/pvalues.csv?measure={M}"))
    header, first = list(csv.reader(io.StringIO(pvalues.content.decode())))[:2]
    assert header == ["row", "column", "value"]
    assert first[:2] == ["Alpha", "Beta"] and float(first[2]) == pytest.approx(3 * 0.3)


def test_the_leaderboard_exports_as_csv_tables_and_json(organiser, personas):
    systems = organiser.get(url(personas, f"leaderboard.csv?measure={M}")).content.decode()
    assert systems.splitlines()[1].startswith("1,Alpha,0.6,")
    pairs = organiser.get(
        url(personas, f"leaderboard.csv?measure={M}&table=pairs")
    ).content.decode()
    # The last columns name the judgment sources (unrecorded: a payload made without them)
    # and the warnings (none recorded in a payload made before them).
    assert pairs.splitlines()[0] == (
        "a,b,delta,ci_low,ci_high,ci_method,p,p_adjusted,delta_psat,judgment_sources,warnings"
    )
    assert pairs.splitlines()[1].endswith(",unrecorded,")
    # a payload stored before letters: its contiguous group's label stands in for them
    assert [row["letters"] for row in csv.DictReader(io.StringIO(systems))] == ["a", "a", "b"]
    scores = organiser.get(
        url(personas, f"leaderboard.csv?measure={M}&table=scores")
    ).content.decode()
    assert "Gamma,q2,0.3," in scores
    data = json.loads(organiser.get(url(personas, f"leaderboard.json?measure={M}")).content)
    assert data["collection"] == "Tiny collection" and len(data["pairs"]) == 3


def test_the_status_document_reports_a_running_recompute(organiser, personas):
    Recompute.objects.create(
        kind="collection", target_id=personas.collection.pk, state="running", done=4_000, total=10_000,
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
    assert organiser.get(url(personas, "significance/?measure=P@5")).status_code == 404
    assert organiser.get(url(personas, f"systems/999999/?measure={M}")).status_code == 404
    assert organiser.get(url(personas, f"systems/Beta/?measure={M}")).status_code == 404
    assert organiser.get(system_url(personas, "Beta").replace(M, "P@5")).status_code == 404
    # A system of the collection that is not on this leaderboard (S1 has no run).
    assert organiser.get(system_url(personas, "S1")).status_code == 404
    assert (
        organiser.get(url(personas, f"leaderboard/plots/nope.csv?measure={M}")).status_code == 404
    )


def test_another_organiser_cannot_see_the_results(client, personas):
    store_results(personas.collection)
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    assert client.get(url(personas, f"leaderboard/?measure={M}")).status_code == 404
    assert client.get(url(personas, f"significance/?measure={M}")).status_code == 404
    assert client.get(url(personas, f"systems/Beta/?measure={M}")).status_code == 404
    plot = url(personas, f"significance/plots/pvalues.csv?measure={M}")
    assert client.get(plot).status_code == 404
    assert client.get(url(personas, "status.json")).status_code == 404


def test_any_page_number_shows_a_page_of_the_list(organiser, personas):
    for number in ("abc", "0", "-1", "2", "999999999999", "1e9", ""):
        for page_url in (url(personas, f"significance/?measure={M}"), system_url(personas, "Beta")):
            response = organiser.get(f"{page_url}&page={number}")
            assert response.status_code == 200, (page_url, number)
            assert "of 3" in response.content.decode() or "of 2" in response.content.decode()


def test_a_system_named_like_markup_stays_text_on_every_page(organiser, personas):
    hostile = '</script><img src=x onerror="alert(1)">'
    payload = json.loads(
        json.dumps(leaderboard_payload()).replace("Gamma", hostile.replace('"', '\\"'))
    )
    leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=payload, computed_at=timezone.now()
    )
    system = System.objects.create(collection=personas.collection, name=hostile)
    for rest in (f"leaderboard/?measure={M}", f"significance/?measure={M}",
                 f"systems/{system.pk}/?measure={M}"):  # fmt: skip
        response = organiser.get(url(personas, rest))
        assert response.status_code == 200, rest
        page = response.content.decode()
        assert "<img" not in page and hostile not in page, rest
    # In the plots' data it is JSON with <, > and & escaped, drawn by plots.js as text.
    spec = plot_specs(organiser.get(url(personas, f"leaderboard/?measure={M}")).content.decode())
    assert spec["means"]["rows"][2][0] == hostile


def test_a_measure_with_the_graded_split_option_has_every_page(organiser, personas):
    # A measure name with a comma (the graded scales' split option) reaches every page
    # and its links keep it whole.
    graded = "CG(scale=graded4,split=cells)@5"
    payload = leaderboard_payload() | {"measure": graded}
    leaderboard_store(
        collection=personas.collection, measure=graded, payload=payload, computed_at=timezone.now()
    )
    g = quote(graded)
    overview = organiser.get(url(personas, "")).content.decode()
    assert f"leaderboard/?measure={g}" in overview
    for rest in (f"leaderboard/?measure={g}", f"significance/?measure={g}",
                 f"systems/{personas.collection.systems.get(name='Beta').pk}/?measure={g}"):  # fmt: skip
        response = organiser.get(url(personas, rest))
        assert response.status_code == 200, rest
        assert graded in response.content.decode(), rest
    csv_data = organiser.get(url(personas, f"leaderboard/plots/means.csv?measure={g}"))
    assert csv_data.content.decode().startswith("label,mean,low,high\nAlpha,0.6,")


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


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("systems (σ²_s)", "systems (σ<sup>2</sup><sub>s</sub>)"),
        ("residual (σ²_sh:q = σ²_e)",
         "residual (σ<sup>2</sup><sub>sh:q</sub> = σ<sup>2</sup><sub>e</sub>)"),
        ("<b>σ²_s</b>", "&lt;b&gt;σ<sup>2</sup><sub>s</sub>&lt;/b&gt;"),  # escaped first
    ],
)  # fmt: skip
def test_a_variance_component_is_written_with_a_real_subscript(name, shown):
    from evaluation.templatetags.formulas import subscripts

    assert subscripts(name) == shown


def test_the_table_kept_between_requests_follows_a_recompute_and_the_systems(organiser, personas):
    # The leaderboard's table is kept per process (evaluation.leaderboard_rows.kept) under
    # the stored leaderboard's id and time and the systems' ids: a recompute's new numbers,
    # a system removed and one added each show at the next request.
    page = url(personas, f"leaderboard/?measure={M}")
    assert 'data-value="0.6">0.6000<' in organiser.get(page).content.decode()  # Alpha's mean
    payload = json.loads(json.dumps(leaderboard_payload()).replace("0.6", "0.7"))
    leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=payload, computed_at=timezone.now()
    )
    again = organiser.get(page).content.decode()
    assert 'data-value="0.7">0.7000<' in again and ">0.6000<" not in again
    beta = personas.collection.systems.get(name="Beta")
    assert f"/systems/{beta.pk}/" in again
    beta.delete()
    assert f"/systems/{beta.pk}/" not in organiser.get(page).content.decode()
    beta = System.objects.create(collection=personas.collection, name="Beta")
    assert f"/systems/{beta.pk}/" in organiser.get(page).content.decode()


def test_the_table_stored_with_the_leaderboard_is_served_until_what_it_shows_changes(
    organiser, personas, monkeypatch
):
    # evaluation.leaderboard_table: storing a leaderboard (what the recompute does) makes
    # its table once; the page then formats nothing, until a system is added (the links
    # change) or the site is served under a prefix the recompute did not know.
    from django.urls import set_script_prefix

    from evaluation import leaderboard_rows

    leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=leaderboard_payload(),
        computed_at=timezone.now(),
    )  # fmt: skip
    made, real = [], leaderboard_rows.table_body
    monkeypatch.setattr(
        leaderboard_rows, "table_body", lambda *a, **k: made.append(1) or real(*a, **k)
    )
    page = url(personas, f"leaderboard/?measure={M}")
    first = organiser.get(page).content.decode()
    beta = personas.collection.systems.get(name="Beta")
    assert made == [] and 'data-value="0.6">0.6000<' in first and f"/systems/{beta.pk}/" in first
    set_script_prefix("/earshot/")  # what a WSGI server's SCRIPT_NAME makes for a request
    try:
        prefixed = organiser.get(page).content.decode()
    finally:
        set_script_prefix("/")
    assert made == [1] and re.search(rf'href="/earshot/[^"]*/systems/{beta.pk}/', prefixed)
    System.objects.create(collection=personas.collection, name="Added since")
    assert 'data-value="0.6">0.6000<' in organiser.get(page).content.decode()
    assert made == [1, 1]
    # The table stored by other code (an upgrade that changed the rows) is not used either.
    from evaluation import leaderboard_table

    leaderboard_store(
        collection=personas.collection, measure=MEASURE, payload=leaderboard_payload(),
        computed_at=timezone.now(),
    )  # fmt: skip
    organiser.get(page)
    assert made == [1, 1, 1]  # made once when stored (the third); the page used it
    monkeypatch.setattr(leaderboard_table, "FORMAT", "formatted by the next version")
    organiser.get(page)
    assert made == [1, 1, 1, 1]
