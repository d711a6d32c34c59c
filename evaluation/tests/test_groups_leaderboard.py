"""ADR on the leaderboards when a collection has official ordered groups (issue 32): the
values by hand, the same intervals, letters and warnings as every measure, pilot left out."""

from __future__ import annotations

import pytest

from catalog.models import JudgmentSource
from catalog.services.sources import judgment_source_set_status
from evaluation.core.measures.adr import average_dynamic_recall_groups
from evaluation.models import Leaderboard, ReliabilityStudy
from evaluation.services import collection_results_compute
from evaluation.services.settings import measures_check
from ingest.importers import judgments_import
from ingest.importers.groups import groups_import
from tests.helpers.importing import write_lines
from tests.helpers.ordered_groups import (
    ADR_BY_HAND,
    GROUPS_FILE,
    RUNS,
    groups_collection,
    groups_collection_imported,
)
from tests.helpers.plain_words import assert_pages_speak_plainly, measure_result_pages
from work.handoff import COLLECTION_CHANGED_TASK

pytestmark = pytest.mark.django_db

ADR = ("ADR(scale=groups)", "ADR(scale=groups)@3")  # @3: the lists' length


@pytest.fixture
def collection(personas, tmp_path):
    return groups_collection_imported(owner_name=personas.organiser.username, folder=tmp_path)


def means(measure: str) -> dict[str, float]:
    board = Leaderboard.objects.get(measure=measure)
    return {row["system"]: row["mean"] for row in board.payload["rows"]}


def test_adr_over_the_ground_truth_and_at_the_lists_length_rank_the_systems(collection):
    collection_results_compute(target_id=collection.pk)

    assert sorted(Leaderboard.objects.values_list("measure", flat=True)) == sorted(ADR)
    for measure in ADR:
        assert means(measure) == pytest.approx(ADR_BY_HAND)
    # The core's ADR of one ranking agrees with the hand computation of the helper.
    truth = {"q1": [["d1", "d2"], ["d3"]], "q2": [["d4"], ["d5", "d1"]]}
    for system, lists in RUNS.items():
        per_query = [average_dynamic_recall_groups(lists[q], truth[q]) for q in ("q1", "q2")]
        assert sum(per_query) / 2 == pytest.approx(ADR_BY_HAND[system])


def test_its_leaderboard_has_the_intervals_letters_and_warnings_of_every_measure(collection):
    collection_results_compute(target_id=collection.pk)

    payload = Leaderboard.objects.get(measure="ADR(scale=groups)@3").payload
    row = payload["rows"][0]
    assert {"mean", "ci_low", "ci_high", "letters"} <= set(row)
    assert row["ci_low"] <= row["mean"] <= row["ci_high"]
    assert payload["judged_label"] == "Judged(scale=groups)@3"
    # Judged@3 against the groups, by hand: the clips of each top 3 in the query's groups.
    # A: 3 + 3 of 6; B: q1 [d3 d1 d4] 2, q2 [d5 d4 d2] 2 → 4/6; C: q1 [d4 d5 d3] 1,
    # q2 [d2 d3 d1] 1 → 2/6.
    judged = {row["system"]: row["judged"] for row in payload["rows"]}
    assert judged == pytest.approx({"A": 1.0, "B": 4 / 6, "C": 2 / 6})
    codes = [warning["code"] for warning in payload["warnings"]]
    assert codes == ["too_few_queries", "unjudged_documents"]  # as for any measure on 2 queries
    assert ReliabilityStudy.objects.filter(measure="ADR(scale=groups)@3").exists()


def test_a_pilot_source_of_groups_leaves_adr_out_and_the_judgments_still_count(
    collection, tmp_path
):
    judgments = write_lines(
        tmp_path, "j.txt", *(f"q{q} d{d} {10 * d}" for q in (1, 2) for d in range(1, 6))
    )
    judgments_import(collection=collection, path=judgments)
    source = JudgmentSource.objects.get(name="experts")
    collection_results_compute(target_id=collection.pk)
    assert set(Leaderboard.objects.values_list("measure", flat=True)) == {
        "CG(scale=fine)@5", "DCG(scale=fine)@5", *ADR
    }  # fmt: skip

    judgment_source_set_status(source=source, status=JudgmentSource.PILOT)
    collection_results_compute(target_id=collection.pk)

    assert set(Leaderboard.objects.values_list("measure", flat=True)) == {
        "CG(scale=fine)@5", "DCG(scale=fine)@5"
    }  # fmt: skip


def test_the_settings_accept_adr_on_the_groups_only_when_official_groups_exist(collection):
    assert measures_check(["ADR(scale=groups)", "ADR(scale=groups)@2"], collection=collection,
                          what="measures") == ["ADR(scale=groups)", "ADR(scale=groups)@2"]  # fmt: skip
    JudgmentSource.objects.update(status=JudgmentSource.PILOT)
    with pytest.raises(Exception, match="has no official ordered groups"):
        measures_check(["ADR(scale=groups)@2"], collection=collection, what="measures")


def test_the_result_pages_of_adr_open_and_speak_plainly(client, personas, collection):
    collection_results_compute(target_id=collection.pk)
    client.force_login(personas.organiser)
    pages = [f"/collections/{collection.pk}/results/", *measure_result_pages(collection, ADR)]
    assert_pages_speak_plainly(client, pages)


def test_importing_groups_asks_for_one_recompute_and_the_same_file_again_for_none(
    personas, tmp_path, handed_over, django_capture_on_commit_callbacks
):
    collection = groups_collection(owner_name=personas.organiser.username)
    path = tmp_path / "groups.txt"
    path.write_text(GROUPS_FILE, encoding="utf-8")

    with django_capture_on_commit_callbacks(execute=True):
        groups_import(collection=collection, path=path)
    with django_capture_on_commit_callbacks(execute=True):
        groups_import(collection=collection, path=path)  # unchanged: nothing to recompute

    assert [kw for name, kw in handed_over if name == COLLECTION_CHANGED_TASK] == [
        {"collection_id": collection.pk}
    ]
