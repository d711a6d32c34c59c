"""Limits before work (issue 21): a recompute states its cost before it starts, refuses
work over the configured limits with a message the organiser reads on the results page,
and hands work over the interactive budget to the heavy queue before doing any of it.

The issue's poison file named 3,018 systems: 3,018 × 3,017 / 2 = 4,552,653 pairs of
systems. ``small_collection`` (``tests/helpers/sources.py``) has 2 systems (1 pair) and 2
judged queries on the Fine scale, so its default measures are CG and DCG on Fine
(``evaluation.services.leaderboards.default_measures``) and the default bootstrap test
with 10,000 resamples costs 1 × 2 × 10,000 × 2 = 40,000 resampled differences.
"""

from __future__ import annotations

import html

import pytest

from evaluation.models import Leaderboard, Recompute
from evaluation.services.computers import recompute_run
from evaluation.services.limits import estimates_admit, leaderboards_admit
from work.limits import TooHeavyHere, WorkRefused
from work.queues import HEAVY, INTERACTIVE, running_on

pytestmark = pytest.mark.django_db


def test_the_issues_poison_file_is_refused_naming_its_pairs_the_limit_and_what_to_change():
    with pytest.raises(WorkRefused) as refused:
        leaderboards_admit(n_systems=3018, n_queries=1, n_measures=2, test="bootstrap",
                           resamples=10_000)  # fmt: skip
    message = refused.value.message
    assert message.startswith("3,018 systems: the pairwise tests would need 4.6 million pairs")
    assert "the limit is 50,000 pairs (about 316 systems, EARSHOT_LIMIT_PAIRS)" in message
    assert "Leave out systems" in message  # what to change


def test_resampled_differences_over_the_limit_are_refused_with_the_cheaper_choices(settings):
    settings.EARSHOT_LIMIT_RESAMPLED = 39_999
    with pytest.raises(WorkRefused) as refused:
        leaderboards_admit(n_systems=2, n_queries=2, n_measures=2, test="bootstrap",
                           resamples=10_000)  # fmt: skip
    assert (
        "1 pairs × 2 queries × 10,000 resamples × 2 measures = 40,000 resampled differences; "
        "the limit is 39,999 (EARSHOT_LIMIT_RESAMPLED)"
    ) in refused.value.message
    assert "Choose a cheaper test" in refused.value.message
    settings.EARSHOT_LIMIT_RESAMPLED = 40_000  # at the limit: admitted, its cost stated
    cost = leaderboards_admit(n_systems=2, n_queries=2, n_measures=2, test="bootstrap",
                              resamples=10_000)  # fmt: skip
    assert cost.statement.endswith("1 pairs × 10,000 resamples = 40,000 resampled differences")
    # the t test draws no resamples: the same collection costs no resampled differences
    assert (
        "resampled"
        not in leaderboards_admit(
            n_systems=2, n_queries=2, n_measures=2, test="t", resamples=10_000
        ).statement
    )


def test_a_refused_recompute_fails_and_the_results_page_says_why(
    small_collection,
    settings,
    client,
):
    settings.EARSHOT_LIMIT_RESAMPLED = 39_999
    row = Recompute.objects.create(kind="collection", target_id=small_collection.pk,
                                   state="queued")  # fmt: skip
    assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert row.state == "failed" and "40,000 resampled differences" in row.error
    assert not Leaderboard.objects.filter(collection=small_collection).exists()  # no work done
    client.force_login(small_collection.owner)
    page = html.unescape(
        client.get(f"/collections/{small_collection.pk}/results/").content.decode()
    )
    assert f"The last recompute failed: {row.error}" in page


def test_work_over_the_interactive_budget_goes_to_the_heavy_queue_before_any_work(
    small_collection,
    settings,
    monkeypatch,
):
    from evaluation.services import recompute as service

    sent = []
    monkeypatch.setattr(service, "_enqueue", lambda pk, countdown: sent.append(pk) or True)
    settings.EARSHOT_INTERACTIVE_MAX_COST = 0
    with pytest.raises(TooHeavyHere), running_on(INTERACTIVE):
        leaderboards_admit(n_systems=2, n_queries=2, n_measures=2, test="t", resamples=1)
    row = Recompute.objects.create(kind="collection", target_id=small_collection.pk,
                                   state="queued")  # fmt: skip
    with running_on(INTERACTIVE):
        assert recompute_run(recompute_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.queue, sent) == ("queued", HEAVY, [row.pk])
    assert not Leaderboard.objects.filter(collection=small_collection).exists()
    with running_on(HEAVY):
        assert recompute_run(recompute_id=row.pk) is True
    assert Recompute.objects.get().state == "done"
    assert Leaderboard.objects.filter(collection=small_collection).count() == 2


def test_a_low_cost_pool_over_its_limit_is_refused(settings):
    settings.EARSHOT_LIMIT_POOL = 999
    with pytest.raises(
        WorkRefused, match=r"a pool of 1,000 \(query, clip\) pairs; the limit is 999"
    ):
        estimates_admit(n_systems=3, n_queries=2, pool_pairs=1000)
