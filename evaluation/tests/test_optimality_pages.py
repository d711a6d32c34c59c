"""The "Choosing a test" page (issue 33): the split-half study of thesis chapter 5 computed
by a recompute within the limits, shown with its verdicts, tables and plots, the same
figures as the command line's ``optimality`` under the same keys, and closed to whoever
may not see or change the collection."""

from __future__ import annotations

import json

import pytest

from catalog.models import CollectionShare
from evaluation.core.cli import main as cli_main
from evaluation.models import OptimalityStudy, Recompute, ResultsConfig
from evaluation.services.computers import recompute_run
from evaluation.services.optimality import collection_optimality_request
from ingest.importers import mirex_import
from tests.helpers.personas import make_user
from tests.helpers.small_study import four_systems_folder

pytestmark = pytest.mark.django_db


@pytest.fixture
def study(tmp_path):
    owner = make_user("choosing-owner", "organiser")
    summary = mirex_import(owner=owner, folder=four_systems_folder(tmp_path), name="Choosing")
    collection = owner.collections.get(pk=summary.collection_id)
    ResultsConfig.objects.create(collection=collection, test="t", seed=7, alpha=0.05)
    return owner, collection, tmp_path


def compute(collection, *, trials=4, resamples=100):
    """Ask as the page does, then run the recompute in the foreground (no broker needed, as
    ``manage.py recompute`` runs it)."""
    collection_optimality_request(collection=collection, trials=trials, resamples=resamples)
    row = Recompute.objects.get(kind="optimality", target_id=collection.pk)
    recompute_run(recompute_id=row.pk)
    row.refresh_from_db()
    return row


def test_the_page_shows_the_same_figures_as_the_command_line(study, capsys):
    _, collection, files = study
    row = compute(collection)
    assert row.state == "done", row.error
    payload = OptimalityStudy.objects.get(collection=collection).payload
    # The collection's default measures (CG and DCG on Fine) then Table 5.2's on Fine and
    # ℓmin = 40 (no Broad judgments here), every test, the collection's seed, α and test.
    measures = [
        "CG(scale=fine)@5", "DCG(scale=fine)@5", "nDCG(scale=fine)@5", "Q(scale=fine)@5",
        "RBP(scale=fine)@5", "GAP(scale=fine)@5", "P(rel=40)@5", "AP(rel=40)@5",
    ]  # fmt: skip
    assert payload["measures"] == measures
    args = ["optimality", str(files / "judgments.tsv"), str(files / "runs.tsv")]
    args += [a for m in measures for a in ("-m", m)]
    args += ["--trials", "4", "--resamples", "100", "--seed", "7", "--alpha", "0.05"]
    assert cli_main([*args, "--baseline", "t", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == payload
    assert payload["verdict"]["baseline"] == "t" and payload["half"] == 6


def test_the_page_reads_the_verdict_tables_and_plots(study, client):
    owner, collection, _ = study
    compute(collection)
    client.force_login(owner)
    page = client.get(f"/collections/{collection.pk}/results/choosing-a-test/")
    assert page.status_code == 200
    text = page.content.decode()
    verdict = OptimalityStudy.objects.get(collection=collection).payload["verdict"]
    assert verdict["tests"][0] in text.replace("&#x27;", "'")
    assert "Tests at α = 0.05" in text and "Measures and scales at α = 0.05" in text
    assert 'data-plot="test-non-significance"' in text and 'data-plot="measure-success"' in text
    assert "Compute again" in text
    csv = client.get(
        f"/collections/{collection.pk}/results/optimality/plots/test-global-conflict.csv"
    )
    assert csv.status_code == 200
    header = csv.content.decode().splitlines()[0]
    assert header.startswith("x,paired t (eq. 5.1)") and header.endswith("α (an exact test)")
    status = client.get(f"/collections/{collection.pk}/results/status.json?part=optimality")
    assert status.json()["recompute"]["status"] == "done"
    overview = client.get(f"/collections/{collection.pk}/results/").content.decode()
    assert "Which test, measure and scale to trust on this collection" in overview


def test_a_study_over_the_limit_fails_before_work_and_the_page_says_why(study, client, settings):
    owner, collection, _ = study
    # 4 systems: 6 pairs; 8 measures; 12 queries: halves of 6; 2 resampling tests:
    # 10 splits × 2 × 6 × 8 × 6 × 100 resamples × 2 = 1,152,000 resampled differences
    settings.EARSHOT_LIMIT_RESAMPLED = 1_151_999
    row = compute(collection, trials=10)
    assert row.state == "failed"
    assert row.error.startswith("Choosing a test would draw 1.2 million resampled differences")
    assert "Ask for fewer random splits or resamples" in row.error
    assert OptimalityStudy.objects.get(collection=collection).payload == {}
    client.force_login(owner)
    text = client.get(f"/collections/{collection.pk}/results/choosing-a-test/").content.decode()
    assert "The last recompute failed: Choosing a test would draw" in text
    settings.EARSHOT_LIMIT_RESAMPLED = 1_152_000  # at the limit: admitted
    assert compute(collection, trials=10).state == "done"


def test_too_few_queries_are_refused_in_words(tmp_path):
    owner = make_user("few-owner", "organiser")
    summary = mirex_import(owner=owner, folder=four_systems_folder(tmp_path, queries=3), name="Few")
    collection = owner.collections.get(pk=summary.collection_id)
    row = compute(collection)
    assert row.state == "failed"
    assert "needs at least 2 systems and 4 judged queries" in row.error
    assert "4 systems and 3 judged queries" in row.error


def test_bad_numbers_are_refused_and_nothing_is_asked_for(study, client):
    owner, collection, _ = study
    client.force_login(owner)
    url = f"/collections/{collection.pk}/results/choosing-a-test/compute/"
    response = client.post(url, {"trials": 1, "resamples": 100})
    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 2" in response.content.decode()
    response = client.post(url, {"trials": "300; DROP TABLE", "resamples": 100})
    assert response.status_code == 400
    assert not Recompute.objects.filter(kind="optimality").exists()
    assert client.post(url, {"trials": 5, "resamples": 100}).status_code == 302
    assert OptimalityStudy.objects.get(collection=collection).trials == 5


def test_another_organiser_sees_nothing_and_a_read_only_one_cannot_compute(study, client):
    _, collection, _ = study
    compute(collection)
    page = f"/collections/{collection.pk}/results/choosing-a-test/"
    post = f"{page}compute/"
    stranger = make_user("stranger", "organiser")
    client.force_login(stranger)
    assert client.get(page).status_code == 404
    assert client.post(post, {"trials": 5, "resamples": 100}).status_code == 404
    assert (
        client.get(
            f"/collections/{collection.pk}/results/optimality/plots/test-success.csv"
        ).status_code
        == 404
    )
    reader = make_user("reader", "organiser")
    CollectionShare.objects.create(collection=collection, user=reader, access="read")
    client.force_login(reader)
    text = client.get(page).content.decode()
    assert "Compute again" not in text and "Tests at α" in text
    assert client.post(post, {"trials": 500, "resamples": 100}).status_code == 403
    assert OptimalityStudy.objects.get(collection=collection).trials == 4


def test_the_api_reads_the_study_and_asks_for_it_within_bounds(study):
    from rest_framework.test import APIClient

    owner, collection, _ = study
    api = APIClient()
    api.force_authenticate(owner)
    base = f"/api/collections/{collection.pk}/optimality/"
    assert api.get(base).json()["payload"] == {}
    refused = api.post(f"{base}compute/", {"trials": 5000}, format="json")
    assert refused.status_code == 400 and "trials" in refused.json()  # DRF field errors
    asked = api.post(f"{base}compute/", {"trials": 4, "resamples": 100}, format="json")
    assert asked.status_code == 202 and asked.json()["recompute"]["status"] == "pending"
    row = Recompute.objects.get(kind="optimality", target_id=collection.pk)
    recompute_run(recompute_id=row.pk)
    read = api.get(base).json()
    assert read["trials"] == 4 and read["payload"]["trials"] == 4
    assert read["recompute"]["status"] == "done"
