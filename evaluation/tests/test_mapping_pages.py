"""The mapping page renders a stored mapping with its plots, bins, exports and plot data."""

import csv
import io
import json
from urllib.parse import quote

import pytest
from django.utils import timezone

from crowd.models import PreferenceCampaign
from evaluation.core.answers import mapping_payload
from evaluation.models import Recompute, SatisfactionMapping
from tests.helpers.mappings import MEASURE, store_mapping
from tests.helpers.personas import PASSWORD
from tests.helpers.plain_words import problems

pytestmark = pytest.mark.django_db
M = quote(MEASURE)


def url(personas, rest: str) -> str:
    return f"/collections/{personas.collection.pk}/results/{rest}"


def test_the_mapping_page_shows_both_plots_the_fit_and_the_counts(organiser, personas):
    campaign = store_mapping(personas.collection)
    page = organiser.get(url(personas, f"mapping/?campaign={campaign.pk}&measure={M}"))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-plot="psat"' in text and 'data-plot="agreement"' in text
    assert "Computed at" in text and 'id="recompute-progress"' in text
    assert f"status.json?campaign={campaign.pk}" in text
    assert "Endpoint bias (eq. 3.11) = 0.2357" in text
    assert "the published mapping of thesis Table 4.3 for CG_l@5 (fine)" in text
    assert "<td>[0.0, 0.1)</td><td>3</td><td>1</td><td>0.333 [" in text
    assert "<td>[0.9, 1.0]</td><td>2</td><td>2</td>" in text


def test_the_overview_and_the_campaign_page_link_the_mapping(organiser, personas):
    campaign = store_mapping(personas.collection)
    overview = organiser.get(url(personas, "")).content.decode()
    link = f"/collections/{personas.collection.pk}/results/mapping/?campaign={campaign.pk}"
    assert f'href="{link}&amp;measure={M}"' in overview
    detail = organiser.get(f"/campaigns/{campaign.pk}/")
    assert f'href="{link}"' in detail.content.decode()


def test_each_mapping_plot_downloads_the_data_it_draws(organiser, personas):
    campaign = store_mapping(personas.collection)
    response = organiser.get(
        url(personas, f"mapping/plots/psat.csv?campaign={campaign.pk}&measure={M}")
    )
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["series", "x", "y", "low", "high", "count"]
    assert rows[1][:3] == ["P(Sat) per bin", "0.05", repr(1 / 3)]
    series = {r[0] for r in rows[1:]}
    assert series == {"P(Sat) per bin", "fitted cubic (eq. 4.3)", "published (Table 4.3)"}
    agreement = organiser.get(
        url(personas, f"mapping/plots/agreement.csv?campaign={campaign.pk}&measure={M}")
    )
    assert {r.split(",")[0] for r in agreement.content.decode().splitlines()[1:]} == {
        "P(Agr = 1)",
        "P(Agr = −1)",
    }


def test_the_mapping_exports_as_csv_bins_and_json(organiser, personas):
    campaign = store_mapping(personas.collection)
    table = organiser.get(url(personas, f"mapping.csv?campaign={campaign.pk}&measure={M}"))
    lines = table.content.decode().splitlines()
    assert lines[0].startswith("bin_low,bin_high,lists,satisfied,p_sat")
    assert lines[1].startswith("0.0,0.1,3,1,0.3333")
    assert len(lines) == 11
    data = json.loads(
        organiser.get(url(personas, f"mapping.json?campaign={campaign.pk}&measure={M}")).content
    )
    assert data["satisfaction"]["counts"] == [3, 1, 0, 1, 0, 1, 0, 0, 0, 2]
    assert data["collection"] == personas.collection.name


def test_the_status_document_follows_the_campaigns_recompute(organiser, personas):
    campaign = store_mapping(personas.collection)
    Recompute.objects.create(
        kind="campaign", target_id=campaign.pk, state="running", done=5_000, total=10_000
    )
    status = organiser.get(url(personas, f"status.json?campaign={campaign.pk}")).json()
    assert status["recompute"]["status"] == "running"
    assert status["mappings"][0]["measure"] == MEASURE


def test_another_organisers_campaign_mapping_is_a_404(client, personas):
    campaign = store_mapping(personas.collection)
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    assert client.get(url(personas, f"mapping/?campaign={campaign.pk}")).status_code == 404
    client.login(username=personas.organiser.username, password=PASSWORD)
    assert client.get(url(personas, "mapping/?campaign=999999")).status_code == 404


def test_a_mapping_of_no_answers_says_why_each_figure_is_missing(organiser, personas):
    """Issue 31: "RMS difference of the binned P(Sat) ." with the value missing."""
    campaign = PreferenceCampaign.objects.create(collection=personas.collection, name="Empty")
    payload = mapping_payload(MEASURE, [], [], [])
    payload.update(n_examples=0, skipped={"no_score": 0, "out_of_range": 0})
    SatisfactionMapping.objects.create(
        campaign=campaign, measure=MEASURE, payload=payload, computed_at=timezone.now()
    )
    page = organiser.get(url(personas, f"mapping/?campaign={campaign.pk}&measure={M}"))
    text = page.content.decode()
    assert payload["published"]["rms_bin_difference"] is None
    assert "binned P(Sat) – (no bin of λ holds a judged list yet)." in text
    assert problems(text) == []


def test_a_broad_only_collections_mapping_page_says_why_its_measure_is_broad(
    organiser, personas, crowd_collection
):
    """Issue 31, item 6: the page says why the measure was chosen, and warns about a Fine
    measure chosen for a collection judged on the Broad scale only."""
    from evaluation.models import MappingConfig
    from evaluation.services import campaign_mapping_compute
    from tests.helpers.crowd_fixtures import make_campaign
    from tests.helpers.mappings import judged_on_broad_only

    judged_on_broad_only(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=0)
    campaign_mapping_compute(campaign=campaign)
    organiser.force_login(personas.organiser)
    base = f"/collections/{crowd_collection.pk}/results/mapping/?campaign={campaign.pk}"
    text = organiser.get(base).content.decode()
    assert "Satisfaction mapping: CG(scale=broad)@5" in text
    assert "CG<sub>l</sub> at the length of the campaign's lists, on the Broad scale, because " \
           "this collection's judgments are on the Broad scale only" in text  # fmt: skip
    assert "This collection has no" not in text

    MappingConfig.objects.create(campaign=campaign, measures=["CG(scale=fine)@5"])
    campaign_mapping_compute(campaign=campaign)
    text = organiser.get(base).content.decode()
    assert "those chosen in the results settings" in text
    assert "This collection has no Fine judgments, so CG(scale=fine)@5 scores every list 0" in text
