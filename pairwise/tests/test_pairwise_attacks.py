"""Attacks on a pairs campaign (issue 32, item 3): each gains nothing, or what it gains is
bounded and said here."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from crowd.models import BOTH_BAD, Answer, PreferenceCampaign, Worker
from crowd.selectors import campaign_room
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from pairwise.selectors import study_votes
from pairwise.services.create import pairwise_campaign_create
from tests.helpers.crowd_fixtures import arrive
from tests.helpers.pairwise_study import (
    TIERS,
    build_pairs_collection,
    hand_over,
    run_in_turns,
    shown_clips,
    tiered_choice,
)

pytestmark = pytest.mark.django_db


def pairs_campaign(collection, **options):
    settings = {
        "answers_per_pair": 3, "margin": 2, "quiz_length": 1, "min_trap_answers": 1,
        "trap_rate": 0.0, "listening_check": False, **options,
    }  # fmt: skip
    return pairwise_campaign_create(collection=collection, name="Pairs", **settings).campaign


def votes_total(campaign) -> int:
    return sum(
        v.answers(a, b) for v in study_votes(campaign_id=campaign.pk).values() for a, b in v.pairs()
    )


def inverted(number, task) -> str:
    """The answer opposite to the careful one (A ↔ B; "equal" stays)."""
    choice = tiered_choice(0, task)
    return {"a_better": "b_better", "b_better": "a_better"}.get(choice, choice)


def test_a_pair_answered_twice_is_one_answer_and_one_vote(personas):
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))
    worker = arrive(campaign, "w0")
    run_in_turns(campaign, [worker], tiered_choice, turns=1)  # the quiz pair: now trusted
    task = task_serve(worker=worker)
    first = answer_submit(worker=worker, key=task.key, choice="a_better")
    again = answer_submit(worker=worker, key=task.key, choice="b_better")  # a resubmission
    hand_over(campaign)
    hand_over(campaign)
    assert again.pk == first.pk and again.choice == "a_better"
    assert Answer.objects.filter(worker=worker, example_id=task.example_id).count() == 1
    assert votes_total(campaign) == 1


def test_both_bad_is_no_answer_to_a_pair_and_nothing_is_stored(personas):
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))
    worker = arrive(campaign, "w0")
    task = task_serve(worker=worker)
    with pytest.raises(ValidationError, match="unknown answer 'both_bad'"):
        answer_submit(worker=worker, key=task.key, choice=BOTH_BAD)
    assert not Answer.objects.exists()


def test_many_identities_voting_one_way_gain_at_most_the_redundancy_of_a_pair(personas):
    """Ten throwaway identities who all say "A" (as shown). The quiz pool holds three
    pairs, each shown to one worker (c1 against c4, c5, c6: the only clear ones), so three
    identities take the quiz; those who miss it are untrusted and their answers no votes;
    after three quizzes the campaign tells the rest it is full. Whoever gets in holds at
    most ``answers_per_pair`` (3) answers of a pair: what ten identities gain on a pair is
    what three careful workers would have had."""
    campaign = pairs_campaign(build_pairs_collection(personas.organiser))
    admitted = []
    for n in range(10):
        if not campaign_room(campaign=campaign):
            break
        worker = arrive(campaign, f"sybil{n}")
        admitted.append(worker)
        run_in_turns(campaign, [worker], lambda _, task: "a_better", turns=20)
    assert len(admitted) == 3 and not campaign_room(campaign=campaign)
    for votes in study_votes(campaign_id=campaign.pk).values():
        assert all(votes.answers(a, b) <= 3 for a, b in votes.pairs())
    # "A" is right on a quiz pair only when the better clip c1 was shown as A: the votes
    # are the work answers of those who were, and of no one else (nor of one stopped at a
    # checkpoint for answering the opposite of the others: their answers are excluded)
    trusted = Worker.objects.filter(campaign=campaign, trusted=True)
    counted = Answer.objects.filter(
        worker__in=trusted, excluded=False, example__trap__isnull=True
    ).count()
    assert votes_total(campaign) == counted


def worker_on_trap_pairs(personas, name: str, choose):
    """A worker who answers every pair of a campaign with trap pairs (no quiz, a trap rate
    of 0.3: 5 work pairs need 3 trap pairs, the three the judgments make) by ``choose``,
    their trust checked after every answer."""
    campaign = pairs_campaign(
        build_pairs_collection(personas.organiser), quiz_length=0, trap_rate=0.3,
        trust_check_every=1,
    )  # fmt: skip
    worker = arrive(campaign, name)
    run_in_turns(campaign, [worker], choose, turns=20)
    worker.refresh_from_db()
    return campaign, worker


def test_an_inverting_worker_is_caught_by_the_trap_pairs_and_their_answers_are_no_votes(
    personas,
):
    campaign, liar = worker_on_trap_pairs(personas, "liar", inverted)
    assert liar.trap_answered >= 1 and liar.trap_correct == 0
    assert (liar.trusted, liar.status) == (False, Worker.STOPPED)
    assert not Answer.objects.filter(worker=liar, excluded=False).exists()
    assert votes_total(campaign) == 0


def test_a_careful_worker_passes_the_same_trap_pairs(personas):
    """The control of the test above: the same campaign, answered by the tiers."""
    campaign, careful = worker_on_trap_pairs(personas, "careful", tiered_choice)
    assert careful.trap_answered >= 1 and careful.trap_correct == careful.trap_answered
    assert careful.trusted and votes_total(campaign) > 0


def test_the_sides_a_worker_sees_follow_the_task_not_the_stored_pair(personas):
    """Random sides: over the first round, both orders of the stored clips are shown."""
    campaign = pairs_campaign(build_pairs_collection(personas.organiser), quiz_length=0)
    swapped = set()
    for n in range(6):
        worker = arrive(campaign, f"w{n}")
        task = task_serve(worker=worker)
        swapped.add(task.swapped)
        a, b = shown_clips(task)
        assert a in TIERS and b in TIERS and a != b
    assert swapped == {True, False}


def test_a_second_organiser_reaches_neither_the_sort_nor_the_form(personas, client):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    client.force_login(personas.other_organiser)
    assert client.get(f"/campaigns/{campaign.pk}/sort/").status_code == 404
    page = f"/collections/{collection.pk}/campaigns/pairs/new/"
    assert client.get(page).status_code == 404
    assert client.post(page, {"name": "Mine", "margin": 2}).status_code == 404
    assert PreferenceCampaign.objects.count() == 1
