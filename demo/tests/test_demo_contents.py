"""What the demo holds, read from one seeding for all these tests (``seeded_demo``, once for
the module, rolled back after it): its users and collections, ranked lists, judgments,
campaigns, the assessors' agreement."""

from __future__ import annotations

import numpy as np
import pytest
from django.contrib.auth import get_user_model

from catalog.models import Collection, Query, RelevanceJudgment, RunEntry, System
from common.roles import is_assessor, is_organiser
from crowd.selectors import campaign_pool_needs
from demo.plan import plan_demo
from demo.seed import (
    ASSESSOR_PASSWORD,
    ASSESSOR_USERNAME,
    COLLECTION_NAME,
    ORGANISER_PASSWORD,
    ORGANISER_USERNAME,
    PREFERENCE_CAMPAIGN_NAME,
    RELEVANCE_CAMPAIGN_NAME,
    SECOND_ASSESSOR_PASSWORD,
    SECOND_ASSESSOR_USERNAME,
    demo_prolific_id,
    demo_seed,
    demo_task_link,
)


@pytest.mark.django_db
def test_it_creates_three_users_and_a_collection_of_48_clips_10_queries_and_4_systems(seeded_demo):
    summary = seeded_demo

    collection = Collection.objects.get(pk=summary.collection_id)
    assert collection.name == COLLECTION_NAME
    assert collection.clips.count() == 48
    assert collection.queries.count() == 10
    assert collection.systems.count() == 4
    assert RunEntry.objects.filter(system__collection=collection).count() == 4 * 10 * 5
    # Every query's pool (the union of the 4 systems' top 5s) is judged once (imported),
    # and the first 3 queries' pools again by each of the two demo assessors.
    pooled = set(
        RunEntry.objects.filter(system__collection=collection).values_list("query", "clip")
    )
    imported = RelevanceJudgment.objects.filter(query__collection=collection, assessor=None)
    assert imported.count() == len(pooled)
    first_three = {
        q.pk for q in Query.objects.filter(clip__external_id__in=plan_demo().queries[:3])
    }
    by_assessors = RelevanceJudgment.objects.filter(assessor__isnull=False)
    assert by_assessors.count() == 2 * len({(q, c) for q, c in pooled if q in first_three})
    assert summary.created.clips == summary.total.clips == 48
    assert summary.created.users == 3
    assert len({c.artist for c in collection.clips.all()}) == 8
    assert len({c.genre for c in collection.clips.all()}) == 3
    assert all(c.title and 8.0 <= c.duration <= 10.0 for c in collection.clips.all())

    organiser = get_user_model().objects.get(username=ORGANISER_USERNAME)
    assessor = get_user_model().objects.get(username=ASSESSOR_USERNAME)
    assert organiser.check_password(ORGANISER_PASSWORD) and is_organiser(organiser)
    assert assessor.check_password(ASSESSOR_PASSWORD) and is_assessor(assessor)
    assert not is_organiser(assessor)
    second = get_user_model().objects.get(username=SECOND_ASSESSOR_USERNAME)
    assert second.check_password(SECOND_ASSESSOR_PASSWORD) and is_assessor(second)


@pytest.mark.django_db
def test_every_ranked_list_has_five_distinct_clips_and_never_the_query_itself(seeded_demo):
    lists = [  # the demo's and its low-cost copy's
        (query, system)
        for collection in Collection.objects.all()
        for query in collection.queries.all()
        for system in collection.systems.all()
    ]
    assert len(lists) == 2 * 10 * 4
    for query, system in lists:
        entries = RunEntry.objects.filter(system=system, query=query).order_by("rank")
        assert [e.rank for e in entries] == [1, 2, 3, 4, 5]
        assert query.clip_id not in {e.clip_id for e in entries}
        scores = [e.score for e in entries]
        assert scores == sorted(scores, reverse=True)


@pytest.mark.django_db
def test_judgments_cover_the_pooled_lists_of_every_query_with_consistent_broad_and_fine(
    seeded_demo,
):
    judgments = RelevanceJudgment.objects.filter(assessor=None)  # imported, not the campaign's
    judged_queries = {j.query_id for j in judgments}
    assert len(judged_queries) == 10
    for query_id in judged_queries:
        pool = set(RunEntry.objects.filter(query_id=query_id).values_list("clip_id", flat=True))
        assert pool == {j.clip_id for j in judgments if j.query_id == query_id}
    assert all(j.source.name == "demo" and j.assessor is None for j in judgments)
    assert {j.source.kind for j in judgments} == {"demo"}
    # Broad follows Fine: a higher Broad category never has a lower Fine score.
    for lower, higher in ((0, 1), (1, 2)):
        top_of_lower = max(j.fine for j in judgments if j.broad == lower)
        bottom_of_higher = min(j.fine for j in judgments if j.broad == higher)
        assert top_of_lower < bottom_of_higher


@pytest.mark.django_db
def test_with_the_seeded_judgments_the_systems_rank_in_their_intended_order(seeded_demo):
    summary = seeded_demo

    imported = RelevanceJudgment.objects.filter(source__name="demo")
    judged = {(j.query_id, j.clip_id): j.fine / 100 for j in imported}
    judged_queries = {q for q, _ in judged}
    mean_fine = {}
    for system in System.objects.filter(collection_id=summary.collection_id):  # not the copy
        entries = RunEntry.objects.filter(system=system, query_id__in=judged_queries)
        gains = [judged[(e.query_id, e.clip_id)] for e in entries]  # the pool is complete
        assert len(gains) == 10 * 5
        mean_fine[system.name] = np.mean(gains)

    assert mean_fine["GoodEar"] > mean_fine["MidFi"] > mean_fine["Hunch"] > mean_fine["Shuffle"]
    assert mean_fine["GoodEar"] - mean_fine["Shuffle"] > 0.2


@pytest.mark.django_db
def test_it_opens_a_judging_campaign_for_the_demo_assessor_over_every_top_5(seeded_demo):
    summary = seeded_demo

    campaign = Collection.objects.get(pk=summary.collection_id).relevance_campaigns.get()
    assert campaign.name == RELEVANCE_CAMPAIGN_NAME
    assessors = campaign.assessors.order_by("username").values_list("username", flat=True)
    assert list(assessors) == [ASSESSOR_USERNAME, SECOND_ASSESSOR_USERNAME]
    assert campaign.assessors_per_query == 2
    # Same-artist clips stay in the demo's pool, so the pool is every system's top 5:
    # the union of the ranked lists' clips per query.
    expected = {
        (entry.query_id, entry.clip_id)
        for entry in RunEntry.objects.filter(system__collection_id=summary.collection_id)
    }
    assert set(campaign.pool.values_list("query_id", "clip_id")) == expected
    assert summary.created.campaigns == summary.total.campaigns == 2  # + the crowd study
    assert demo_seed(audio=False).created.campaigns == 0


@pytest.mark.django_db
def test_it_opens_a_crowd_study_with_trap_questions_and_a_prolific_style_link(seeded_demo):
    summary = seeded_demo

    campaign = Collection.objects.get(pk=summary.collection_id).preference_campaigns.get()
    assert campaign.name == PREFERENCE_CAMPAIGN_NAME
    # Every pair of the 4 systems on every query whose two lists differ (at most 6 × 10),
    # plus the generator's examples.
    from_systems = campaign.examples.filter(source="systems").count()
    assert 0 < from_systems <= 60
    assert campaign.examples.filter(source="generator").exists()
    # Issue 29: no quiz pool (each worker's quiz question is made from the judgments) and
    # a work pool drawn from the clear-cut examples in proportion to their sources: the
    # systems' 4 and the generator's 1 (73 ordinary examples at a trap rate of 0.06 need
    # ⌈73 · 0.06 / 0.94⌉ = 5), as many as the settings need, so it can be closed and
    # opened again.
    traps = campaign.examples.filter(trap__isnull=False)
    assert not traps.filter(trap__pool="quiz").exists()
    assert traps.filter(trap__pool="work").count() == 5
    assert campaign_pool_needs(campaign=campaign).quiz_made
    assert campaign.quiz_length == 1 and campaign.listening_check
    assert campaign_pool_needs(campaign=campaign).problems == []
    link = demo_task_link(worker="w1")
    assert link.startswith(campaign.task_link())
    assert f"PROLIFIC_PID={demo_prolific_id('w1')}&" in link  # 24 hexadecimal characters


@pytest.mark.django_db
def test_two_demo_assessors_judged_the_same_queries_so_agreement_shows_at_once(seeded_demo):
    """α and RMS of the seeded campaign, against the krippendorff package and numpy."""
    krippendorff = pytest.importorskip("krippendorff")
    from relevance.selectors import campaign_agreement

    summary = seeded_demo
    campaign = Collection.objects.get(pk=summary.collection_id).relevance_campaigns.get()
    plan = plan_demo()
    pairs = {(j.query, j.clip) for j in plan.assessor_judgments}
    fine = np.array(
        [[j.fine for j in plan.assessor_judgments if j.assessor == a] for a in (0, 1)], float
    )
    broad = np.array(
        [[j.broad for j in plan.assessor_judgments if j.assessor == a] for a in (0, 1)], float
    )

    agreement = campaign_agreement(campaign=campaign)

    assert agreement.queries == 3 and agreement.pairs == len(pairs) == fine.shape[1]
    expected_alpha = krippendorff.alpha(reliability_data=fine, level_of_measurement="interval")
    assert agreement.alpha_fine == pytest.approx(expected_alpha)
    assert agreement.alpha_broad == pytest.approx(
        krippendorff.alpha(reliability_data=broad, level_of_measurement="ordinal")
    )
    # Thesis §7.4: RMS of the differences on scores divided by the scale's top.
    assert agreement.rms_fine == pytest.approx(np.sqrt(np.mean(((fine[0] - fine[1]) / 100) ** 2)))
    assert agreement.rms_broad == pytest.approx(np.sqrt(np.mean(((broad[0] - broad[1]) / 2) ** 2)))
    assert 0.5 < agreement.alpha_fine < 1  # people who mostly agree, as the plan intends
    # Both assessors finished those queries, with timings, and the rest is left to judge.
    done = campaign.assignments.filter(completed_at__isnull=False)
    assert done.count() == 6 and done.filter(activity__judging_seconds__gt=0).exists()
    assert campaign.assignments.filter(assessor__isnull=True).count() == 2 * 10 - 6
