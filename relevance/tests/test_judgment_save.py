"""Saving a judgment: at once, idempotent, timed, and only on one's own work.

The must-listen rule reads what the server sent (``AudioServed``), never the page's
``listened_seconds`` (issue 12): ``heard`` below records audio sent some seconds ago,
as the judging page's per-assignment audio URL does.
"""

import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalog.models import RelevanceJudgment
from common.audio import ByteRange
from listening.models import AudioServed
from listening.services.audio_served import audio_served_record
from relevance.models import JudgmentActivity
from relevance.services.campaigns import (
    AssignmentTakenBack,
    MustListenFirst,
    assignment_next,
    assignments_take_back,
    judgment_save,
)
from tests.helpers.relevance_data import make_assessor, make_campaign

pytestmark = pytest.mark.django_db


def heard(assignment, entry, *, seconds_ago: float, size: int = 8000) -> None:
    """The server sent the whole of the candidate's audio ``seconds_ago`` for the assignment."""
    audio_served_record(
        clip=entry.clip, size=size, byte_range=ByteRange(0, size - 1), assignment=assignment,
        now=timezone.now() - timedelta(seconds=seconds_ago),
    )  # fmt: skip


@pytest.fixture
def work(personas):
    """An assignment whose candidates the server sent one after another, 6 s apart, the last
    6 s ago (the campaign asks for 5 s of each: one at a time, as a person hears them)."""
    campaign = make_campaign(personas, must_listen_seconds=5)
    assignment = assignment_next(campaign=campaign, assessor=personas.assessor)
    entries = list(campaign.pool.filter(query=assignment.query))
    for n, entry in enumerate(entries):
        heard(assignment, entry, seconds_ago=6 * (len(entries) - n))
    return assignment, entries


def save(assignment, entry, **values):
    values.setdefault("listened_seconds", 6.0)
    return judgment_save(
        assignment=assignment, assessor=assignment.assessor, pool_entry=entry, **values
    )


def test_a_judgment_lands_in_relevance_judgments_with_assessor_and_source(work):
    assignment, entries = work
    save(assignment, entries[0], broad=2, fine=81)
    judgment = RelevanceJudgment.objects.get()
    assert (judgment.query, judgment.clip, judgment.assessor) == (
        assignment.query,
        entries[0].clip,
        assignment.assessor,
    )
    assert judgment.source == assignment.campaign.source
    assert (judgment.broad, judgment.fine) == (2, 81)


def test_broad_and_fine_can_come_in_separate_saves_and_be_changed(work):
    assignment, entries = work
    save(assignment, entries[0], broad=1)
    save(assignment, entries[0], fine=40)
    saved = save(assignment, entries[0], broad=0)
    assert (saved.broad, saved.fine) == (0, 40)
    assert RelevanceJudgment.objects.count() == 1


def test_repeating_a_save_changes_nothing(work):
    assignment, entries = work
    first = save(assignment, entries[0], broad=2, fine=90, judging_seconds=12.5, plays=2)
    again = save(assignment, entries[0], broad=2, fine=90, judging_seconds=12.5, plays=2)
    assert first == again
    assert RelevanceJudgment.objects.count() == JudgmentActivity.objects.count() == 1


def test_timings_are_running_totals_that_a_late_request_cannot_lower(work):
    assignment, entries = work
    save(assignment, entries[0], listened_seconds=9.0, judging_seconds=20.0, plays=3)
    late = save(assignment, entries[0], listened_seconds=6.0, judging_seconds=4.0, plays=1)
    assert (late.listened_seconds, late.judging_seconds, late.plays) == (9.0, 20.0, 3)


def test_listening_is_recorded_before_any_score(work):
    assignment, entries = work
    save(assignment, entries[0], listened_seconds=2.0, plays=1)
    activity = JudgmentActivity.objects.get()
    assert activity.judgment is None
    assert (activity.listened_seconds, activity.plays) == (2.0, 1)
    assert not RelevanceJudgment.objects.exists()


def test_what_the_page_reports_beyond_the_time_observed_is_cut_and_flagged(work):
    # Issue 29's assessor bot: 86,400 s and 100,000 plays reported 16 s after the clip
    # first reached the assessor. Hand computation: at most 16 + 1 s slack = 17 s of
    # listening, and 1 + 2 plays a second × 16 s = 33 plays.
    assignment, entries = work
    AudioServed.objects.filter(clip=entries[0].clip).delete()
    reached = timezone.now() - timedelta(minutes=5)
    audio_served_record(
        clip=entries[0].clip, size=8000, byte_range=None, assignment=assignment, now=reached
    )
    saved = judgment_save(
        assignment=assignment, assessor=assignment.assessor, pool_entry=entries[0],
        listened_seconds=86_400.0, plays=100_000, now=reached + timedelta(seconds=16),
    )  # fmt: skip
    assert (saved.listened_seconds, saved.plays) == (17.0, 33)
    assert JudgmentActivity.objects.get().timing_impossible
    # Figures within what was observed are kept as reported, and the flag stays.
    later = judgment_save(
        assignment=assignment, assessor=assignment.assessor, pool_entry=entries[0],
        listened_seconds=20.0, plays=3, now=reached + timedelta(seconds=30),
    )  # fmt: skip
    assert (later.listened_seconds, later.plays) == (20.0, 33)  # running totals
    assert JudgmentActivity.objects.get().timing_impossible


def test_figures_the_observed_time_allows_are_kept_unflagged(work):
    assignment, entries = work  # the first candidate's audio reached the assessor 24 s ago
    saved = save(assignment, entries[0], listened_seconds=23.5, plays=4)
    assert (saved.listened_seconds, saved.plays) == (23.5, 4)
    assert not JudgmentActivity.objects.get().timing_impossible


def test_a_refused_score_keeps_the_cut_figures_and_the_flag(work):
    assignment, entries = work
    AudioServed.objects.filter(clip=entries[0].clip).delete()  # nothing reached the assessor
    with pytest.raises(MustListenFirst):
        save(assignment, entries[0], broad=2, fine=90, listened_seconds=86_400.0, plays=100_000)
    assert not RelevanceJudgment.objects.exists()
    activity = JudgmentActivity.objects.get()  # no time observed: 0 + 1 s slack, 1 play
    assert (activity.listened_seconds, activity.plays, activity.judgment) == (1.0, 1, None)
    assert activity.timing_impossible


def test_a_score_before_the_server_sent_the_must_listen_time_is_refused(work):
    assignment, entries = work
    AudioServed.objects.filter(clip=entries[0].clip).delete()
    heard(assignment, entries[0], seconds_ago=3)  # sent 3 s ago: at most 3 s heard
    with pytest.raises(MustListenFirst):
        save(assignment, entries[0], broad=1, listened_seconds=3.0)  # campaign asks for 5 s
    assert not RelevanceJudgment.objects.exists()


def test_a_claimed_listening_time_without_audio_sent_is_refused(work):
    # Issue 12: a POST claiming 86,400 s with no audio fetched was saved.
    assignment, entries = work
    AudioServed.objects.filter(clip=entries[0].clip).delete()
    with pytest.raises(MustListenFirst, match=re.escape("the server has sent 0.0 s")):
        save(assignment, entries[0], broad=1, listened_seconds=86_400.0, plays=0)
    assert not RelevanceJudgment.objects.exists()


def test_audio_sent_for_another_assignment_does_not_count(work, personas):
    assignment, entries = work
    AudioServed.objects.filter(assignment=assignment, clip=entries[0].clip).delete()
    other = assignment.campaign.assignments.exclude(pk=assignment.pk).first()
    heard(other, entries[0], seconds_ago=60)
    with pytest.raises(MustListenFirst):
        save(assignment, entries[0], broad=1)


def test_no_more_is_heard_than_the_share_of_the_clip_that_was_sent(work):
    assignment, entries = work
    clip = entries[0].clip
    clip.duration = 30.0
    clip.save(update_fields=["duration"])
    AudioServed.objects.filter(clip=clip).delete()
    size = 30_000
    audio_served_record(
        clip=clip, size=size, byte_range=ByteRange(0, size // 10 - 1), assignment=assignment,
        now=timezone.now() - timedelta(seconds=60),
    )  # fmt: skip
    # A tenth of a 30 s clip is 3 s, however long ago it was sent.
    with pytest.raises(MustListenFirst, match=re.escape("sent 3.0 s")):
        save(assignment, entries[0], broad=1)
    heard(assignment, entries[0], seconds_ago=60, size=size)  # the rest of the file
    assert save(assignment, entries[0], broad=1).heard_seconds == pytest.approx(30.0)


def test_audio_sent_earlier_counts_towards_the_must_listen_time(work):
    assignment, entries = work
    saved = save(assignment, entries[0], broad=1, listened_seconds=0.0)
    assert saved.broad == 1 and saved.heard_seconds >= 6


def test_the_query_is_done_when_every_candidate_has_both_scores(work):
    assignment, entries = work
    for entry in entries[:-1]:
        save(assignment, entry, broad=1, fine=50)
    partly = save(assignment, entries[-1], broad=1)
    assert (partly.candidates_done, partly.assignment_done) == (len(entries) - 1, False)
    done = save(assignment, entries[-1], fine=55)
    assert (done.candidates_done, done.candidates_total) == (len(entries), len(entries))
    assignment.refresh_from_db()
    assert done.assignment_done and assignment.completed_at is not None


def test_out_of_range_scores_are_refused(work):
    assignment, entries = work
    with pytest.raises(ValidationError):
        save(assignment, entries[0], broad=3)
    with pytest.raises(ValidationError):
        save(assignment, entries[0], fine=101)


def test_a_clip_of_another_query_is_not_a_candidate(work):
    assignment, _ = work
    other = assignment.campaign.pool.exclude(query=assignment.query).first()
    with pytest.raises(ValidationError):
        save(assignment, other, broad=1)


def test_someone_elses_assignment_cannot_be_saved_to(work):
    assignment, entries = work
    with pytest.raises(AssignmentTakenBack):
        judgment_save(
            assignment=assignment, assessor=make_assessor("bea"), pool_entry=entries[0], broad=1
        )


def test_untouched_work_is_taken_back_after_the_configured_time(work):
    assignment, entries = work
    assessor, campaign = assignment.assessor, assignment.campaign  # take back after 60 min
    assert assignments_take_back(campaign=campaign, now=timezone.now() + timedelta(minutes=59)) == 0
    assert assignments_take_back(campaign=campaign, now=timezone.now() + timedelta(minutes=61)) == 1
    assignment.refresh_from_db()
    assert assignment.assessor is None
    with pytest.raises(AssignmentTakenBack):
        judgment_save(assignment=assignment, assessor=assessor, pool_entry=entries[0], fine=10)


def test_work_with_anything_saved_is_never_taken_back(work):
    assignment, entries = work
    save(assignment, entries[0], listened_seconds=1.0)
    later = timezone.now() + timedelta(days=7)
    assert assignments_take_back(campaign=assignment.campaign, now=later) == 0


def test_a_complete_judgment_is_handed_to_evaluation_after_the_commit(
    work, handed_over, django_capture_on_commit_callbacks
):
    assignment, entries = work
    collection_id = assignment.campaign.collection_id
    with django_capture_on_commit_callbacks(execute=True):
        save(assignment, entries[0], broad=2)  # half a judgment: not counted yet
    assert handed_over == []
    with django_capture_on_commit_callbacks(execute=True):
        save(assignment, entries[0], fine=81)
    assert handed_over == [("evaluation.collection_data_changed", {"collection_id": collection_id})]
