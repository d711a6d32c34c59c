"""Filling a campaign's trap pools from the official judgments in one step (the campaign
page's "Fill the pools from the official judgments", ``POST …/traps/fill/``).

The collection's official Fine judgments are set by hand: clips d01–d12 score 90 and
d13–d24 score 10 for queries q1–q3; every clip scores 50 for q4. A pilot source (left out
of results) scores q4's clips 100 and 0 instead. The examples, by their lists' means:

- q1 and q2: 90 vs 10 (a better), 10 vs 90 (b better), 90 vs 90 (both good: ≥ 70),
  10 vs 10 (both bad: ≤ 25) — clear-cut;
- q3: 90 vs 10 and 10 vs 90 — clear-cut;
- q4: 50 vs 50 twice — not clear-cut (a lead of 0, neither ≥ 70 nor ≤ 25). With the
  pilot judgments counted they would be (75 vs 25: a lead of 50 ≥ 40).

So 10 of the 12 examples are clear-cut.
"""

import pytest
from django.test import Client

from catalog.models import JudgmentSource, RelevanceJudgment
from crowd.models import TrapQuestion
from crowd.selectors import campaign_pool_needs
from crowd.services.campaigns import preference_campaign_create
from crowd.services.examples import examples_import_csv
from crowd.services.settings import preference_campaign_open_set
from crowd.services.traps import trap_pools_fill
from tests.helpers.clients import client_for
from tests.helpers.sources import source_for

pytestmark = pytest.mark.django_db

HIGH1, HIGH2 = "d01 d02 d03 d04 d05", "d06 d07 d08 d09 d10"
LOW1, LOW2 = "d13 d14 d15 d16 d17", "d18 d19 d20 d21 d22"
EXAMPLES = [
    *(f"{q},{a},{b}" for q in ("q1", "q2") for a, b in
      ((HIGH1, LOW1), (LOW2, HIGH2), (HIGH1, HIGH2), (LOW1, LOW2))),
    f"q3,{HIGH1},{LOW1}", f"q3,{LOW2},{HIGH2}",
    f"q4,{HIGH1},{LOW1}", f"q4,{LOW2},{HIGH2}",
]  # fmt: skip


def fill_campaign(collection, name="Fill", **settings):
    if not JudgmentSource.objects.filter(collection=collection, name="pilot").exists():
        judgments = RelevanceJudgment.objects.filter(query__collection=collection)
        judgments.filter(clip__external_id__lte="d12").update(fine=90)
        judgments.filter(clip__external_id__gt="d12").update(fine=10)
        judgments.filter(query__clip__external_id="q4").update(fine=50)
        pilot = source_for(collection, "pilot", status=JudgmentSource.PILOT)
        for judgment in judgments.filter(query__clip__external_id="q4"):
            RelevanceJudgment.objects.create(
                query=judgment.query, clip=judgment.clip, source=pilot,
                fine=100 if judgment.clip.external_id <= "d12" else 0,
            )  # fmt: skip
    campaign = preference_campaign_create(
        collection=collection, name=name, system_pairs=None, listening_check=False, **settings
    )
    assert (
        len(
            examples_import_csv(
                campaign=campaign, text="query,list_a,list_b\n" + "\n".join(EXAMPLES)
            )
        )
        == 12
    )
    return campaign


def q4_traps(campaign) -> int:
    return TrapQuestion.objects.filter(
        example__campaign=campaign, example__query__clip__external_id="q4"
    ).count()


def test_every_pool_gets_what_its_settings_need_and_a_second_click_marks_nothing(
    crowd_collection,
):
    campaign = fill_campaign(crowd_collection, practice_length=1, quiz_length=1, trap_rate=0.2)
    # Needs: practice 1; the quiz nothing (q1–q3 have 12 clips at 90 and 12 at 10: the
    # judgments make a question for each worker, issue 29); work with 12 − 1 = 11
    # ordinary examples: the least k with k ≥ ⌈(11 − k)·0.2 / 0.8⌉ is 3 (k = 2: ⌈2.25⌉ = 3
    # > 2; k = 3: ⌈2⌉ = 2).
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"practice": 1, "work": 3}
    assert filled.needs.problems == [] and filled.needs.quiz_made
    assert filled.summary == (
        "Marked from the official judgments: 1 practice question, 3 work trap questions. "
        "Judgments read: the Fine scores, 0 to 100."
    )
    assert q4_traps(campaign) == 0  # clear-cut only by the pilot's judgments
    again = trap_pools_fill(campaign=campaign)
    assert again.marked == {}
    assert again.summary == (
        "No trap question was marked. Every pool already has what the settings need."
    )


def test_when_clear_cut_examples_run_out_the_pools_stay_short_and_it_says_so(crowd_collection):
    campaign = fill_campaign(crowd_collection, trap_rate=0.9)
    # k ≥ ⌈(12 − k)·9⌉ needs k = 11; only the 10 clear-cut examples can be marked, and the
    # 2 ordinary examples left still need ⌈2 · 9⌉ = 18.
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"work": 10}
    needs = campaign_pool_needs(campaign=campaign)
    assert (needs.work_have, needs.work_needed) == (10, 18)
    assert len(filled.needs.problems) == 1
    assert filled.summary.startswith(
        "Marked from the official judgments: 10 work trap questions. Every clear-cut example "
        "among the imported ones (10) is a work trap question: a campaign made the same way "
        "from this collection would have the same ones"
    )  # the draw had no choice (with 3 of 10, the first test, it is not said)
    # What is left: q4's 2 examples, 50 against 50 (module docstring).
    assert filled.summary.endswith(
        "Not enough clear-cut examples were left for every pool. Of the 2 examples without "
        "a trap question, 2 are judged, but no list is far better and the two are not both "
        "clearly good or both clearly bad. Judgments read: the Fine scores, 0 to 100. Lower "
        "the trap rate, or mark more by hand on the “Examples and their answers” page."
    )
    assert q4_traps(campaign) == 0


def test_without_judgments_that_make_quiz_questions_the_quiz_pool_needs_one_quiz(
    crowd_collection,
):
    campaign = fill_campaign(crowd_collection, quiz_length=2, trap_rate=0.0)
    RelevanceJudgment.objects.filter(query__collection=crowd_collection).update(fine=50)
    # Every clip at 50: no list is clearly good or bad, so no quiz question can be made
    # and none of the examples is clear-cut any more: the pool stays empty.
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"quiz": 0}
    assert (filled.needs.quiz_made, filled.needs.quiz_have, filled.needs.quiz_needed) == (
        False, 0, 2,
    )  # fmt: skip
    assert "cannot make quiz questions" in filled.needs.problems[0]


def test_broad_judgments_alone_make_trap_questions(crowd_collection):
    campaign = fill_campaign(crowd_collection, trap_rate=0.2)
    judgments = RelevanceJudgment.objects.filter(query__collection=crowd_collection)
    judgments.update(fine=None, broad=0)  # Not similar: level 0
    judgments.filter(clip__external_id__lte="d12").update(broad=2)  # Very similar: level 1
    filled = trap_pools_fill(campaign=campaign)
    # q4 is clear-cut now too (its official judgments are Broad 2 and 0 like the others'):
    # 12 candidates; k ≥ ⌈(12 − k) / 4⌉ gives k = 3.
    assert filled.marked == {"work": 3}
    trap = TrapQuestion.objects.filter(example__campaign=campaign).first()
    assert (
        "judged 2.0 against 0.0 on average" in trap.explanation
        or "judged 0.0 and 0.0 on average" in (trap.explanation)
        or "judged 2.0 and 2.0 on average" in trap.explanation
    )
    assert "where 0 is Not similar, 1 Somewhat similar and 2 Very similar" in trap.explanation


def test_two_campaigns_made_the_same_way_draw_other_trap_questions(crowd_collection):
    # Issue 29: the pools were taken in order, so a second campaign had the same ones.
    drawn = []
    for n in range(4):
        campaign = fill_campaign(crowd_collection, trap_rate=0.2, name=f"Fill {n}")
        trap_pools_fill(campaign=campaign)
        drawn.append(
            frozenset(
                TrapQuestion.objects.filter(example__campaign=campaign).values_list(
                    "example__signature", flat=True
                )
            )
        )
    # 3 of the 10 clear-cut examples each time: 4 equal draws would happen once in 120³.
    assert len(set(drawn)) > 1


def test_the_page_and_the_api_fill_the_pools_for_the_campaigns_organisers_only(
    crowd_collection, personas
):
    campaign = fill_campaign(crowd_collection, quiz_length=1, trap_rate=0.2)
    organiser = Client()
    organiser.force_login(personas.organiser)
    page = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Fill the pools from the official judgments" in page
    assert "0 of 3 work" in page and "questions made from the official judgments" in page
    outsider = client_for(personas.other_organiser)
    assert outsider.post(f"/api/campaigns/{campaign.pk}/traps/fill/").status_code == 404
    assert not TrapQuestion.objects.filter(example__campaign=campaign).exists()
    response = organiser.post(f"/campaigns/{campaign.pk}/traps/fill/", follow=True)
    assert "Marked from the official judgments: 3 work trap questions." in (
        response.content.decode()
    )
    body = client_for(personas.organiser).post(f"/api/campaigns/{campaign.pk}/traps/fill/").json()
    assert body == {
        "marked": {},
        "summary": "No trap question was marked. Every pool already has what the settings need.",
        "problems": [],
    }


def test_a_trap_rate_of_one_is_named_as_the_problem_not_the_judgments(crowd_collection):
    campaign = fill_campaign(crowd_collection, trap_rate=1.0)
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {}  # no pool size is enough: nothing to aim at
    assert filled.summary == (
        "No trap question was marked. A trap rate of 1 leaves no ordinary work: lower it in "
        "the settings."
    )


def test_the_work_pool_is_drawn_in_proportion_to_each_source_within_the_lift_bound():
    # The issue's campaign by hand: 60 systems' examples (4 clear-cut), 36 generator
    # examples (14 clear-cut), 10 trap questions asked for. A total t is possible when each
    # source can hold ⌊1.35 · t · size / 96⌋: t = 10 allows systems ⌊8.4⌋ but only 4 are
    # clear-cut, and the generator ⌊5.06⌋ = 5: 9 < 10; t = 9: 4 + ⌊4.56⌋ = 8 < 9; t = 8:
    # 4 + ⌊4.05⌋ = 8. So 8 are drawn, 4 from each: a list seen in one example only (the
    # generator's) holds a trap question (4/36) / (8/96) = 1.33 times as often as any
    # example does.
    import random
    from types import SimpleNamespace

    from crowd.services.traps import SOURCE_LIFT_MAX, _draw_in_proportion

    def candidates(source, n):
        return [(SimpleNamespace(source=source, query_id=i % 10), "a_better", "") for i in range(n)]

    drawn = _draw_in_proportion(
        candidates("systems", 4) + candidates("generator", 14), count=10, have={},
        sizes={"systems": 60, "generator": 36}, rng=random.Random(0),
    )  # fmt: skip
    sources = [example.source for example, _, _ in drawn]
    assert (sources.count("systems"), sources.count("generator")) == (4, 4)
    assert (4 / 36) / (8 / 96) <= SOURCE_LIFT_MAX == 1.35


# Issue 31 item 3: a collection judged on the Broad scale alone (TREC qrels), on the Fine
# scale alone (the tests above) and on both.

BROAD_LISTS = {
    # Broad levels of each list's clips, in the order of HIGH1, HIGH2, LOW1, LOW2, and
    # each list's level (mean Broad / 2, thesis eq. (3.3) with linear gain on 0–2):
    HIGH1: [2, 2, 2, 1, 1],  # 8 / 10 = 0.8
    HIGH2: [2, 2, 2, 2, 1],  # 9 / 10 = 0.9
    LOW1: [1, 1, 1, 1, 0],  # 4 / 10 = 0.4
    LOW2: [1, 0, 0, 0, 0],  # 1 / 10 = 0.1
}


def judged_on_broad_by_hand(collection) -> None:
    """Every official judgment Broad only: the clips of the four lists as in
    ``BROAD_LISTS`` for q1–q3, the other clips (d11, d12 Very similar; d23, d24 Not
    similar), and every clip Somewhat similar for q4."""
    broad = {"d11": 2, "d12": 2, "d23": 0, "d24": 0}
    for ids, levels in BROAD_LISTS.items():
        broad.update(zip(ids.split(), levels, strict=True))
    for judgment in RelevanceJudgment.objects.filter(query__collection=collection).select_related(
        "clip", "query__clip"
    ):
        q4 = judgment.query.clip.external_id == "q4"
        judgment.fine, judgment.broad = None, 1 if q4 else broad[judgment.clip.external_id]
        judgment.save(update_fields=["fine", "broad"])


def answers_marked(campaign) -> dict[tuple[str, str, str], list[str]]:
    return {
        (
            trap.example.query.clip.external_id,
            *(
                " ".join(i.clip.external_id for i in trap.example.items.all() if i.side == side)
                for side in "ab"
            ),
        ): trap.accepted_answers
        for trap in TrapQuestion.objects.filter(example__campaign=campaign).exclude(
            example__source="quiz"
        )
    }


def q3_a_better_explanation(campaign) -> str:
    """The explanation of the trap question marked on q3's HIGH1 vs LOW1 (a better)."""
    return TrapQuestion.objects.get(
        example__campaign=campaign, example__query__clip__external_id="q3",
        accepted_answers=["a_better"],
    ).explanation  # fmt: skip


def test_on_broad_levels_alone_the_clear_cut_examples_are_those_worked_out_by_hand(
    crowd_collection,
):
    campaign = fill_campaign(crowd_collection, trap_rate=0.9)  # asks for 11: takes them all
    judged_on_broad_by_hand(crowd_collection)
    filled = trap_pools_fill(campaign=campaign)
    # By the thresholds (one list ≥ 0.40 above the other; both ≥ 0.70; both ≤ 0.25):
    # q1, q2 and q3: HIGH1 0.8 vs LOW1 0.4 — a lead of exactly 0.40: a better;
    #                LOW2 0.1 vs HIGH2 0.9 — b better;
    # q1 and q2:     HIGH1 0.8 vs HIGH2 0.9 — both good;
    #                LOW1 0.4 vs LOW2 0.1 — a lead of 0.3 and 0.4 > 0.25: not clear-cut;
    # q4:            0.5 vs 0.5 twice — not clear-cut.
    # 8 clear-cut examples of 12; the trap rate 0.9 asks for more, so all 8 are marked.
    expected = {
        **{(q, HIGH1, LOW1): ["a_better"] for q in ("q1", "q2", "q3")},
        **{(q, LOW2, HIGH2): ["b_better"] for q in ("q1", "q2", "q3")},
        **{(q, HIGH1, HIGH2): ["both_good"] for q in ("q1", "q2")},
    }
    assert filled.marked == {"work": 8}
    assert answers_marked(campaign) == expected
    assert q3_a_better_explanation(campaign) == (
        "The clips of one list are far more similar to the query (judged 1.6 against 0.8 on "
        "average, where 0 is Not similar, 1 Somewhat similar and 2 Very similar)."
    )
    assert filled.summary == (
        "Marked from the official judgments: 8 work trap questions. Every clear-cut example "
        "among the imported ones (8) is a work trap question: a campaign made the same way "
        "from this collection would have the same ones, so what a worker learns of them in "
        "one holds in the next; a lower trap rate leaves the draw a choice. Not enough clear-cut "
        "examples were left for every pool. Of the 4 examples without a trap question, 4 are "
        "judged, but no list is far better and the two are not both clearly good or both "
        "clearly bad. Judgments read: the Broad levels, as no clip has a Fine score: Not "
        "similar, Somewhat similar and Very similar count as 0, 1 and 2. Lower the trap rate, "
        "or mark more by hand on the “Examples and their answers” page."
    )


def test_on_broad_levels_alone_the_pools_fill_and_the_campaign_opens(crowd_collection):
    campaign = fill_campaign(crowd_collection, trap_rate=0.2, quiz_length=2)
    judged_on_broad_by_hand(crowd_collection)
    filled = trap_pools_fill(campaign=campaign)
    # 11 ordinary examples need 3 work trap questions (the first test above); the quiz
    # is made from the judgments (q1–q3 have 9 clips of level 1 and 5 of level ≤ 0.25).
    assert filled.marked == {"work": 3} and filled.needs.problems == []
    assert filled.summary.endswith(
        "Judgments read: the Broad levels, as no clip has a Fine score: Not similar, "
        "Somewhat similar and Very similar count as 0, 1 and 2."
    )
    preference_campaign_open_set(campaign=campaign, is_open=True)
    campaign.refresh_from_db()
    assert campaign.is_open


def test_on_both_scales_a_clip_without_a_fine_score_is_read_from_its_broad_level(
    crowd_collection,
):
    campaign = fill_campaign(crowd_collection, trap_rate=0.9)
    judgments = RelevanceJudgment.objects.filter(
        query__collection=crowd_collection, source__status=JudgmentSource.OFFICIAL
    )
    # d13–d24 lose their Fine score (10, or 50 for q4) for a Broad level: Not similar
    # (level 0) for q1–q3, Somewhat similar (0.5) for q4. d01–d12 keep Fine 90 (50 for q4).
    judgments.filter(clip__external_id__gt="d12").update(fine=None, broad=0)
    judgments.filter(clip__external_id__gt="d12", query__clip__external_id="q4").update(broad=1)
    filled = trap_pools_fill(campaign=campaign)
    # q1, q2: 0.9 vs 0 (a better), 0 vs 0.9 (b better), 0.9 vs 0.9 (both good), 0 vs 0
    # (both bad); q3: a better, b better; q4: 0.5 vs 0.5 twice, not clear-cut: 10 marked.
    assert filled.marked == {"work": 10}
    assert answers_marked(campaign)[("q1", LOW1, LOW2)] == ["both_bad"]
    assert answers_marked(campaign)[("q1", HIGH1, LOW1)] == ["a_better"]
    assert q3_a_better_explanation(campaign) == (
        "The clips of one list are far more similar to the query (judged 90 against 0 of 100)."
    )
    assert "Judgments read: the Fine scores, 0 to 100, and the Broad levels where a clip " in (
        filled.summary
    )


def test_when_clips_are_not_judged_the_message_names_an_example_and_its_missing_clips(
    crowd_collection,
):
    campaign = fill_campaign(crowd_collection, trap_rate=0.9)
    judged_on_broad_by_hand(crowd_collection)
    # q3's judgments of d13 and d14 taken away: its example HIGH1 vs LOW1 has two clips of
    # list b unjudged (and it was clear-cut); its LOW2 vs HIGH2 is judged.
    RelevanceJudgment.objects.filter(
        query__clip__external_id="q3", clip__external_id__in=["d13", "d14"]
    ).delete()
    unjudged = campaign.examples.get(
        query__clip__external_id="q3", items__side="b", items__rank=1,
        items__clip__external_id="d13",
    )  # fmt: skip
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"work": 7}  # the 8 of the test above but that one
    assert (
        "Of the 5 examples without a trap question, 1 has a clip with no official judgment "
        f"for its query (e.g. example {unjudged.pk}, query q3: clips d13, d14 of its list B); "
        "4 are judged, but no list is far better" in filled.summary
    )
    assert filled.summary.endswith(
        "Judge the missing clips, lower the trap rate, or mark more by hand on the “Examples "
        "and their answers” page."
    )
