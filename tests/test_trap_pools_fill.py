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

from judging.models import JudgmentSource, RelevanceJudgment, TrapQuestion
from judging.selectors.crowd_integrity import campaign_pool_needs
from judging.services.crowd.campaigns import preference_campaign_create
from judging.services.crowd.examples import examples_import_csv
from judging.services.crowd.traps import trap_pools_fill
from tests.sources import source_for
from tests.test_collection_apis import client_for

pytestmark = pytest.mark.django_db

HIGH1, HIGH2 = "d01 d02 d03 d04 d05", "d06 d07 d08 d09 d10"
LOW1, LOW2 = "d13 d14 d15 d16 d17", "d18 d19 d20 d21 d22"
EXAMPLES = [
    *(f"{q},{a},{b}" for q in ("q1", "q2") for a, b in
      ((HIGH1, LOW1), (LOW2, HIGH2), (HIGH1, HIGH2), (LOW1, LOW2))),
    f"q3,{HIGH1},{LOW1}", f"q3,{LOW2},{HIGH2}",
    f"q4,{HIGH1},{LOW1}", f"q4,{LOW2},{HIGH2}",
]  # fmt: skip


def fill_campaign(collection, **settings):
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
        collection=collection, name="Fill", system_pairs=None, listening_check=False, **settings
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
    # Needs: practice 1; quiz 1 / 0.25 = 4; work with 12 − 5 = 7 ordinary examples left:
    # the least k with k ≥ ⌈(7 − k)·0.2 / 0.8⌉ is 2 (k = 1: ⌈1.5⌉ = 2 > 1; k = 2: ⌈1.25⌉ = 2).
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"practice": 1, "quiz": 4, "work": 2}
    assert filled.needs.problems == []
    assert filled.summary == (
        "Marked from the official judgments: 1 practice question, 4 quiz questions, "
        "2 work trap questions."
    )
    assert q4_traps(campaign) == 0  # clear-cut only by the pilot's judgments
    again = trap_pools_fill(campaign=campaign)
    assert again.marked == {}
    assert again.summary == (
        "No trap question was marked. Every pool already has what the settings need."
    )


def test_when_clear_cut_examples_run_out_the_pools_stay_short_and_it_says_so(crowd_collection):
    campaign = fill_campaign(crowd_collection, quiz_length=3, trap_rate=0.2)
    # The quiz needs 3 / 0.25 = 12 questions: all 10 clear-cut examples, and still short;
    # the 2 ordinary examples left need ⌈2 · 0.25⌉ = 1 work trap question, and none is left.
    filled = trap_pools_fill(campaign=campaign)
    assert filled.marked == {"quiz": 10, "work": 0}
    needs = campaign_pool_needs(campaign=campaign)
    assert (needs.quiz_have, needs.quiz_needed, needs.work_have, needs.work_needed) == (
        10, 12, 0, 1,
    )  # fmt: skip
    assert len(filled.needs.problems) == 2
    assert filled.summary.startswith("Marked from the official judgments: 10 quiz questions.")
    assert "mark the rest by hand from the examples page" in filled.summary
    assert q4_traps(campaign) == 0


def test_the_page_and_the_api_fill_the_pools_for_the_campaigns_organisers_only(
    crowd_collection, personas
):
    campaign = fill_campaign(crowd_collection, quiz_length=1, trap_rate=0.0)
    organiser = Client()
    organiser.force_login(personas.organiser)
    page = organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Fill the pools from the official judgments" in page
    assert "0 of 4 quiz" in page
    outsider = client_for(personas.other_organiser)
    assert outsider.post(f"/api/campaigns/{campaign.pk}/traps/fill/").status_code == 404
    assert not TrapQuestion.objects.filter(example__campaign=campaign).exists()

    response = organiser.post(f"/campaigns/{campaign.pk}/traps/fill/", follow=True)
    assert "Marked from the official judgments: 4 quiz questions." in response.content.decode()
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
