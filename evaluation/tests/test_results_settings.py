"""Results settings (evaluation.services.settings and its page): checks, one recompute per save."""

from __future__ import annotations

import html

import pytest
from django.core.exceptions import ValidationError

from catalog.models import RelevanceJudgment
from evaluation.models import MappingConfig, Recompute, ResultsConfig
from evaluation.services import recompute as recompute_service
from evaluation.services.settings import (
    mapping_config_update,
    results_config_update,
    results_settings_notes,
)
from tests.helpers.crowd_fixtures import make_campaign

pytestmark = pytest.mark.django_db
CG = "CG(scale=fine)@5"


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"measures": ["Bogus@5"]}, "measures", "Bogus@5"),
        ({"measures": ["num_ret"]}, "measures", "a count summed over queries"),
        ({"measures": ["nDCG(scale=fine)"]}, "measures", "give a cut-off"),
        ({"measures": ["RBP@5", "RBP(p=0.8)@5"]}, "measures", "RBP(p=0.8)@5 is the same measure as RBP@5"),
        ({"measures": ["CG(scale=broad)@5"]}, "measures", "has no Broad judgments"),
        ({"test": "bootstrap", "resamples": 999}, "resamples", "between 1,000 and 1,000,000"),
        ({"alpha": 0.5}, "alpha", "between 0 and 0.5"),
        ({"reliability_target": 1.0}, "reliability_target", "infinitely many queries"),
        ({"adjustment": "sidak"}, "adjustment", "holm, bonferroni or none"),
    ],
)  # fmt: skip
def test_wrong_results_settings_are_refused_with_a_message_and_nothing_is_recomputed(
    crowd_collection, enqueued, changes, field, words
):
    with pytest.raises(ValidationError) as error:
        results_config_update(collection=crowd_collection, changes=changes)
    assert words in " ".join(error.value.message_dict[field])
    assert not ResultsConfig.objects.exists() and not Recompute.objects.exists()


def test_saving_asks_for_one_recompute_and_saving_the_same_again_for_none(
    crowd_collection, enqueued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        changed = results_config_update(
            collection=crowd_collection,
            changes={"measures": [" CG(scale=fine)@5", "DCG(scale=fine)@5"], "test": "t",
                     "alpha": 0.01},
        )  # fmt: skip
    assert changed == ["measures", "test", "alpha"]
    config = ResultsConfig.objects.get(collection=crowd_collection)
    assert config.measures == [CG, "DCG(scale=fine)@5"] and config.test == "t"
    row = Recompute.objects.get(kind="collection", target_id=crowd_collection.pk)
    assert (row.state, row.requests) == ("queued", 1) and enqueued == [row.pk]
    with django_capture_on_commit_callbacks(execute=True):
        assert results_config_update(collection=crowd_collection, changes={"test": "t"}) == []
    assert Recompute.objects.get(pk=row.pk).requests == 1 and len(enqueued) == 1


def test_a_campaigns_mapping_measures_are_saved_and_recomputed_once(
    crowd_collection, enqueued, django_capture_on_commit_callbacks
):
    campaign = make_campaign(crowd_collection, traps=0)
    with django_capture_on_commit_callbacks(execute=True):
        assert mapping_config_update(campaign=campaign, measures=[CG, "DCG(scale=fine)@5"])
    assert MappingConfig.objects.get(campaign=campaign).measures == [CG, "DCG(scale=fine)@5"]
    assert Recompute.objects.get(kind="campaign", target_id=campaign.pk).requests == 1
    assert mapping_config_update(campaign=campaign, measures=[CG, "DCG(scale=fine)@5"]) is False
    RelevanceJudgment.objects.update(fine=None, broad=1)
    with pytest.raises(ValidationError, match="has no Fine judgments"):
        mapping_config_update(campaign=campaign, measures=[CG])


def test_the_page_notes_when_p_values_are_coarser_than_the_smallest_adjusted_threshold():
    # 18 systems: 18·17/2 = 153 pairs; Holm's first threshold α/153 = 0.05/153 ≈ 3.3e-4,
    # finer than 1/1000: ⌈153 / 0.05⌉ = 3060 resamples resolve it. 10,000 do.
    coarse = ResultsConfig(test="bootstrap", adjustment="holm", alpha=0.05, resamples=1000)
    [note] = results_settings_notes(config=coarse, n_systems=18)
    assert "153 pairs" in note and "α/153 = 0.00033" in note and "3,060 resamples" in note
    fine = ResultsConfig(test="bootstrap", adjustment="holm", alpha=0.05, resamples=10_000)
    assert results_settings_notes(config=fine, n_systems=18) == []
    [unused] = results_settings_notes(config=ResultsConfig(test="t"), n_systems=18)
    assert "does not resample" in unused


def test_the_page_saves_shows_messages_and_follows_the_recompute(
    client, personas, crowd_collection, enqueued
):
    client.force_login(personas.organiser)
    url = f"/collections/{crowd_collection.pk}/results/settings/"
    page = client.get(url).content.decode()
    assert 'id="settings-recompute"' in page and "No results computed yet." in page
    data = {"form": "results", "measures": "RBP@5\nRBP(p=0.8)@5", "test": "bootstrap",
            "adjustment": "holm", "resamples": 10000, "seed": 1, "alpha": 0.05,
            "reliability_target": 0.95}  # fmt: skip
    refused = html.unescape(client.post(url, data).content.decode())
    assert "RBP(p=0.8)@5 is the same measure as RBP@5: keep one." in refused
    saved = client.post(url, {**data, "measures": CG}, follow=True).content.decode()
    assert "Saved results; the results are being recomputed." in saved
    assert "Recomputing the results with these settings" in saved
    campaign = make_campaign(crowd_collection, traps=0)
    mapping = client.post(
        url,
        {"form": "mapping", "campaign": campaign.pk, f"c{campaign.pk}-measures": CG},
        follow=True,
    )
    assert "Saved the mapping of “Study”" in html.unescape(mapping.content.decode())
    assert client.post(url, {"form": "mapping", "campaign": 999999}).status_code == 404


def test_a_broker_that_cannot_be_reached_neither_loses_the_settings_nor_breaks_the_page(
    client, personas, crowd_collection, monkeypatch, django_capture_on_commit_callbacks
):
    def dead(pk, countdown):
        raise ConnectionError("Error 111 connecting to the broker")

    monkeypatch.setattr(recompute_service, "_enqueue", dead)
    client.force_login(personas.organiser)
    url = f"/collections/{crowd_collection.pk}/results/settings/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"form": "results", "measures": CG, "test": "t",
                                     "adjustment": "holm", "resamples": 1000, "seed": 1,
                                     "alpha": 0.05, "reliability_target": 0.9})  # fmt: skip
    assert response.status_code == 302
    assert ResultsConfig.objects.get(collection=crowd_collection).test == "t"
    row = Recompute.objects.get(kind="collection", target_id=crowd_collection.pk)
    assert row.state == "queued"  # re-sent by the next request once STALE_AFTER passed


def test_the_page_says_when_the_results_were_last_computed_as_a_person_writes_a_time(
    client, personas
):
    """Issue 31: "…computed at 2026-11-28T06:49:14 UTC" (an ISO timestamp with its T)."""
    from datetime import UTC, datetime

    Recompute.objects.create(
        kind="collection", target_id=personas.collection.pk, state=Recompute.DONE,
        finished_at=datetime(2026, 11, 28, 6, 49, 14, tzinfo=UTC),
    )  # fmt: skip
    client.force_login(personas.organiser)
    page = client.get(f"/collections/{personas.collection.pk}/results/settings/").content.decode()
    assert "Results last computed at 2026-11-28 06:49:14 UTC." in page
