"""A pairs campaign's sort, driven by answers given through the worker path (issue 32,
item 3; done when "a test on a hand-made pairwise study, worked out in a comment, gives
the expected groups; importing a past study reproduces them").

The study (``tests/helpers/pairwise_study.py``): query q1, candidates c1–c6, three
workers who hear the tiers ⟨c1⟩, ⟨c2, c3⟩, ⟨c4, c5, c6⟩, margin 2, 3 answers per pair.

Worked out by hand. The votes of a pair, from :func:`tiered_choice`:

- two tiers apart (c1 against c4, c5, c6): 3 to 0 for the better clip;
- next tiers (c1 against c2, c3; c2, c3 against c4, c5, c6): 2 to 0 (worker 2 says
  "equally similar") — a lead of 2, the margin: the better clip is above;
- one tier (c2 against c3; any two of c4, c5, c6): 1 to 1 — a lead of 0: equal.

So whatever pivot a part draws, the part splits along the tiers: the clips of better
tiers above the pivot, the clips of its own tier in its "equal" set, the worse below. For
example, pivot c2 in round 1 (pairs c1–c2, c3–c2, c4–c2, c5–c2, c6–c2): above ⟨c1⟩ (one
clip: settled), equal ⟨c3⟩ with the pivot c2 (one clip left: settled as ⟨c2, c3⟩), below
⟨c4, c5, c6⟩; round 2 with pivot c5 (c4–c5, c6–c5): both equal, so ⟨c4, c6⟩ is refined
with c5 among its ties; round 3 with pivot c4 (c6–c4): equal, and the group ⟨c4, c5, c6⟩
is settled. The groups: ⟨c1⟩, ⟨c2, c3⟩, ⟨c4, c5, c6⟩, whichever the pivots (their number
of rounds is not: it is 2 to 4).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import JudgmentSource
from crowd.models import Answer, Example, TrapQuestion, Worker
from evaluation.models import Recompute
from ingest.importers.groups import past_study_import
from pairwise.models import PairwiseSort
from pairwise.selectors import study_progress, study_votes
from pairwise.services.create import pairwise_campaign_create
from pairwise.services.driver import Drive, pairwise_drive
from pairwise.services.examples import pair_signature
from pairwise.sort_state import state_from_data
from tests.helpers.pairwise_study import (
    answers_as_past_study,
    build_pairs_collection,
    run_in_turns,
    source_groups,
    three_workers,
    tiered_choice,
)

pytestmark = pytest.mark.django_db

EXPECTED = (("c1",), ("c2", "c3"), ("c4", "c5", "c6"))


def pairs_campaign(collection, **options):
    settings = {
        "answers_per_pair": 3, "margin": 2, "quiz_length": 1, "min_trap_answers": 1,
        "trap_rate": 0.0, "listening_check": False, "source_name": "crowd pairs",
        **options,
    }  # fmt: skip
    return pairwise_campaign_create(collection=collection, name="Pairs", **settings).campaign


def test_answers_given_through_the_worker_path_sort_the_query_into_the_groups_worked_out_by_hand(
    personas, tmp_path
):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    sort = PairwiseSort.objects.get(study_id=campaign.pk)
    assert len(state_from_data(sort.state).round_pairs()) == 5  # every clip against the pivot
    workers = three_workers(campaign)

    answers = run_in_turns(campaign, workers, tiered_choice)

    sort.refresh_from_db()
    state = state_from_data(sort.state)
    assert (
        sort.done
        and sort.written
        and state.groups()
        == tuple(
            tuple(sorted(str(collection.clips.get(external_id=c).pk) for c in g)) for g in EXPECTED
        )
    )
    assert 2 <= state.rounds <= 4  # the module's doc: it depends on the pivots
    source = JudgmentSource.objects.get(collection=collection, name="crowd pairs")
    assert (source.kind, source.status) == (JudgmentSource.PAIRWISE, JudgmentSource.PILOT)
    assert source_groups(source) == EXPECTED
    # every worker is trusted (the quiz pair right), every pair asked has its 3 answers, and
    # nothing beyond: 3 quiz answers + 3 per pair
    assert Worker.objects.filter(campaign=campaign, trusted=True).count() == 3
    pairs = Example.objects.filter(campaign=campaign, trap__isnull=True)
    assert {e.answers.count() for e in pairs} == {3}
    assert answers == 3 + 3 * pairs.count()
    # the same answers as a past study's CSV give the same groups (ingest's importer)
    csv_path = tmp_path / "study.csv"
    csv_path.write_text(answers_as_past_study(campaign), encoding="utf-8")
    summary = past_study_import(collection=collection, path=csv_path, source="past", margin=2)
    assert summary.answers == 3 * pairs.count()
    past = JudgmentSource.objects.get(collection=collection, name="past")
    assert source_groups(past) == EXPECTED
    # a pairs campaign feeds no satisfaction mapping: nothing was asked for it
    assert not Recompute.objects.filter(kind="campaign", target_id=campaign.pk).exists()


def test_the_organiser_sees_each_round_its_pairs_and_its_answers_counted(personas):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    (row,) = study_progress(study=campaign.pairwise)
    assert (row.progress.round, len(row.progress.pairs), row.progress.answers_needed) == (1, 5, 15)
    assert row.progress.answers == 0 and not row.progress.done
    run_in_turns(campaign, three_workers(campaign), tiered_choice, turns=2)  # quiz, one pair
    (row,) = study_progress(study=campaign.pairwise)
    assert (row.progress.round, row.progress.answers, row.progress.done) == (1, 3, False)


def test_driving_again_changes_nothing_and_makes_no_second_example(personas):
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    before = list(Example.objects.filter(campaign=campaign).values_list("pk", "signature"))
    state = PairwiseSort.objects.get(study_id=campaign.pk).state
    assert pairwise_drive(campaign_id=campaign.pk).examples == 0
    assert pairwise_drive(campaign_id=campaign.pk).examples == 0
    assert list(Example.objects.filter(campaign=campaign).values_list("pk", "signature")) == before
    assert PairwiseSort.objects.get(study_id=campaign.pk).state == state


def test_a_quiz_pair_is_apart_from_the_same_pair_asked_by_the_sort(personas):
    """The three quiz pairs are c1 against c4, c5, c6 (the only clear ones): when the sort
    asks c1 against c4 it gets a work example of its own, served like any work."""
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    quiz = Example.objects.filter(campaign=campaign, trap__pool=TrapQuestion.QUIZ)
    assert quiz.count() == 3
    assert all(e.signature.endswith("|quiz") for e in quiz)
    assert not Example.objects.filter(campaign=campaign, trap__pool=TrapQuestion.WORK).exists()


def test_votes_are_the_answers_that_count_only(personas):
    """An untrusted worker's answers (no trap answered yet) are stored and are no votes."""
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection, quiz_length=0, min_trap_answers=1)
    worker = three_workers(campaign)[0]
    run_in_turns(campaign, [worker], tiered_choice, turns=2)
    assert Answer.objects.filter(worker=worker).count() == 2
    assert study_votes(campaign_id=campaign.pk) == {}


def test_a_drive_with_nothing_new_reads_the_pairs_once_not_pair_by_pair(personas):
    # Every answer hands the campaign over and the driver drives every unfinished sort:
    # a round's pairs, made already, are found in one read of the campaign's signatures
    # (before: one SELECT per pair of every sort's round, on every answer).
    collection = build_pairs_collection(personas.organiser)
    campaign = pairs_campaign(collection)
    sort = PairwiseSort.objects.get(study_id=campaign.pk)
    pairs = state_from_data(sort.state).round_pairs()
    assert len(pairs) == 5
    pairwise_drive(campaign_id=campaign.pk)
    made = set(Example.objects.filter(campaign=campaign).values_list("signature", flat=True))
    assert {pair_signature(sort.query_id, int(d), int(p)) for d, p in pairs} <= made
    with CaptureQueriesContext(connection) as seen:
        drive = pairwise_drive(campaign_id=campaign.pk)
    assert drive == Drive()
    by_signature = [q["sql"] for q in seen.captured_queries if '"signature" = ' in q["sql"]]
    assert by_signature == []
    # the savepoint and its release, the study locked, its campaign, the votes (items and
    # answers), the signatures, the unwritten sorts: 8, however many pairs a round has
    assert len(seen.captured_queries) == 8
