"""In Chromium, with the real Celery worker on the embedded Redis: an organiser asks which
test to trust on a collection, watches the split-half study run and reads its verdict,
tables and plots (issue 33)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from evaluation.models import OptimalityStudy
from ingest.importers import mirex_import
from tests.helpers.browser import log_in, violations
from tests.helpers.personas import PASSWORD
from tests.helpers.small_study import four_systems_folder

pytestmark = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


def test_an_organiser_computes_which_test_to_trust_and_reads_it(
    page, personas, tmp_path, celery_worker_process
):
    owner = personas.organiser
    summary = mirex_import(
        owner=owner, folder=four_systems_folder(tmp_path, queries=12), name="Choosing"
    )
    log_in(page, owner.username, PASSWORD)
    page.goto(f"/collections/{summary.collection_id}/results/")
    page.get_by_role(
        "link", name="Which test, measure and scale to trust on this collection"
    ).click()
    expect(page.get_by_role("heading", name="Choosing a test", level=1)).to_be_visible()
    expect(page.get_by_text("Not computed yet: press Compute.")).to_be_visible()
    assert violations(page) == []  # axe-core: no serious or critical violation
    page.get_by_label("Random splits of the queries").fill("4")
    page.get_by_label("Resamples of the bootstrap and permutation tests").fill("100")
    page.get_by_role("button", name="Compute", exact=True).click()
    # The page polls the recompute and shows the study once the worker has stored it.
    expect(page.get_by_role("heading", name="What this collection says")).to_be_visible(
        timeout=90_000
    )
    study = OptimalityStudy.objects.get(collection_id=summary.collection_id)
    verdict = study.payload["verdict"]
    expect(page.get_by_role("list").filter(has_text=verdict["tests"][0])).to_be_visible()
    tests = page.get_by_role("table", name=re.compile(r"^Each test on every measure below"))
    expect(tests.get_by_role("rowheader")).to_have_text(
        ["t-test", "Wilcoxon test", "sign test", "bootstrap test", "permutation test"]
    )
    plot = page.get_by_role("img", name=re.compile(r"^Per test: pairs not significant"))
    assert plot.bounding_box()["width"] > 200
    # five tests and the rate = α line, each a curve over the 32 levels, on a log scale
    conflicts = page.locator("#plot-test-global-conflict path[data-series]")
    expect(conflicts).to_have_count(6)
    figure = page.locator("#plot-test-global-conflict")
    with page.expect_download() as info:
        figure.get_by_role("link", name="data (CSV)").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert len(text.splitlines()) == 1 + 32
    expect(page.get_by_role("button", name="Compute again")).to_be_visible()
    assert violations(page) == []  # with the tables, the verdict and the plots
    assert study.trials == 4 and study.resamples == 100
