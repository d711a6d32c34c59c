"""Issue 12's attacks on a crowd study, replayed with plain HTTP; each gains nothing.

Every attacker here has only what a script has: the task link, the HTML it gets back,
the audio URLs it names, and forms to post (:class:`tests.helpers.crowd_http.Browser`). The
attacks: a freeloader on each platform, a harvester with ten identities, takeover by
platform id on Prolific and on Mechanical Turk, re-entry after being stopped, a forged
``listened_seconds`` on the assessor's page, an answer with no audio fetched, and
working on after the campaign closed. Issue 22's attacks with throwaway identities are in
``crowd/tests/test_crowd_fake_identities.py``.

This module is long because it replays every attack of issue 12 in one place, each with
the set-up it needs spelled out.
"""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from catalog.models import RelevanceJudgment
from crowd.models import (
    BOTH_BAD,
    BOTH_GOOD,
    Answer,
    PreferenceTask,
    TrapQuestion,
    Worker,
    choice_as_stored,
)
from crowd.services.settings import preference_campaign_open_set
from crowd.services.traps import trap_question_mark
from listening.models import AudioServed
from relevance.services.campaigns import assignment_next
from tests.helpers.clients import as_, post_json
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import participant_id, prolific_id
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = pytest.mark.django_db

PROLIFIC = "PROLIFIC_PID={id}&STUDY_ID=s1&SESSION_ID=x1"
MTURK = "workerId={id}&assignmentId=ASG{id}&hitId=H1&turkSubmitTo=https://workersandbox.mturk.com"
GENERIC = "worker={id}"
PLATFORMS = {"prolific": PROLIFIC, "mturk": MTURK, "generic": GENERIC}


def code_given(browser, campaign) -> bool:
    """Did anything this browser received carry the completion code or a way to submit?"""
    seen = browser.everything_seen()
    return campaign.completion_code in seen or "externalSubmit" in seen


# --- 1. Completion code without work --------------------------------------------------


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_freeloader_gets_no_completion_code_on_any_platform(platform, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=3)
    freeloader = Browser(campaign)
    freeloader.arrive(PLATFORMS[platform].format(id=participant_id(platform, "free1")))

    before_consent = freeloader.done()  # straight to the end: no consent, no answer
    assert before_consent.status_code == 302
    assert before_consent.url == f"/t/{campaign.token}/consent/"

    freeloader.consent()
    after_consent = freeloader.done()
    assert after_consent.url == f"/t/{campaign.token}/task/"  # back to work

    freeloader.task()
    freeloader.answer("a_better")
    after_one = freeloader.done()  # one of three answers is not finishing
    assert after_one.url == f"/t/{campaign.token}/task/"
    assert not code_given(freeloader, campaign)

    for _ in range(2):  # the honest end: the cap reached
        freeloader.task()
        freeloader.answer("a_better")
    earned = freeloader.done()
    assert earned.status_code == 200
    if platform == "mturk":
        assert (
            'action="https://workersandbox.mturk.com/mturk/externalSubmit"'
            in earned.content.decode()
        )
    else:
        assert campaign.completion_code in earned.content.decode()


def test_a_worker_who_arrives_when_nothing_is_left_gets_no_code(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, answers_per_example=1)
    early = Browser(campaign)  # answers every example: none is left for anyone
    early.start(PROLIFIC.format(id=prolific_id("early")))
    while early.key:
        early.answer("a_better")
        early.task()
    late = Browser(campaign)
    late.arrive(PROLIFIC.format(id=prolific_id("late")))
    page = late.get(f"{late.base}/consent/")  # told before consenting: nothing to do here
    assert page.status_code == 200 and "This study is full" in page.content.decode()
    assert 'name="agree"' not in page.content.decode()
    assert not code_given(late, campaign)
    assert "submissions/complete" not in late.everything_seen()  # a return, no code


# --- 2. Harvesting trap questions with many identities ---------------------------------


@pytest.fixture
def trapped_campaign(audible_collection):
    """A quiz of 2 from a quiz pool of 3; 5 work traps that only "both good"/"both bad"
    answer (so answering "A is better" to everything misses every one); every work-mode
    task a trap while they last (``trap_rate=1``)."""
    campaign = make_campaign(
        audible_collection, traps=3, quiz_traps=3, quiz_length=2, trap_rate=1.0,
        trust_threshold=0.7, listening_check=True, min_seconds_on_task=0,
    )  # fmt: skip
    plain = campaign.examples.filter(trap__isnull=True).order_by("pk")
    for i, example in enumerate(plain[:5]):
        trap_question_mark(example=example, accepted_answers=[[BOTH_GOOD, BOTH_BAD][i % 2]])
    return campaign


def test_ten_identities_learn_the_quiz_and_nothing_that_passes_work_mode(trapped_campaign):
    campaign = trapped_campaign
    revealed, urls, pages_seen = set(), [], []
    for i in range(10):
        harvester = Browser(campaign)
        harvester.start(PROLIFIC.format(id=prolific_id(f"harvest{i}")))
        while harvester.key and "Qualification question" in harvester.page.content.decode():
            urls += harvester.audio_urls()
            harvester.listen(then_wait=5)  # 3 clips of 1.5 s, one at a time (issue 23)
            task = PreferenceTask.objects.get(key=harvester.key)
            response = harvester.answer("a_better")
            feedback = harvester.get(response.url)
            assert "The expected answer is" in feedback.content.decode() or "Right" in (
                feedback.content.decode()
            )
            revealed.add(task.example_id)
            harvester.task()
        # In work mode a harvester sees the task, and no feedback can be had for it,
        # before or after answering it.
        if harvester.key:
            urls += harvester.audio_urls()
            feedback_url = f"/t/{campaign.token}/feedback/{harvester.key}/"
            assert harvester.get(feedback_url).status_code == 404
            harvester.listen(then_wait=5)
            assert harvester.answer("a_better").url == f"/t/{campaign.token}/task/"
            assert harvester.get(feedback_url).status_code == 404
        pages_seen.append(harvester.everything_seen())

    # Issue 29: each identity's quiz is its own: the 3 questions of the pool went to the
    # first two identities, and every other one was made for its identity from the
    # judgments, so 10 identities learnt 20 answers that no other identity is asked.
    assert len(revealed) == 10 * 2 and len(urls) >= 10 * 2 * 11
    quiz = set(
        TrapQuestion.objects.filter(example__campaign=campaign, pool="quiz").values_list(
            "example_id", flat=True
        )
    )
    work = set(
        TrapQuestion.objects.filter(example__campaign=campaign, pool="work").values_list(
            "example_id", flat=True
        )
    )
    assert revealed <= quiz and not revealed & work  # feedback revealed only the quiz pool
    assert len(urls) == len(set(urls))  # no audio URL ever repeats: nothing links two tasks
    for text in pages_seen:  # nothing names a work trap's accepted answer
        for trap in TrapQuestion.objects.filter(pool="work"):
            assert f"example {trap.example_id}" not in text.lower()

    # The eleventh identity answers its own quiz right (by ear: no harvest helps) and
    # then answers "A is better" to everything: it misses every work trap and is stopped
    # at the first checkpoint (issue 22: no oracle), here the end of its work, since
    # fewer than trust_check_every (10) work tasks were left for it.
    cheat = Browser(campaign)
    cheat.start(PROLIFIC.format(id=prolific_id("cheat")))
    answered = 0
    while cheat.key:
        task = PreferenceTask.objects.get(key=cheat.key)
        cheat.listen(then_wait=5)
        if task.is_quiz:
            accepted = task.example.trap.accepted_answers[0]
            cheat.answer(choice_as_stored(accepted, swapped=task.swapped))
        else:
            cheat.answer("a_better")
        answered += 1
        cheat.task()
    worker = Worker.objects.get(platform_id=prolific_id("cheat"))
    assert (worker.status, worker.stop_reason) == (Worker.STOPPED, Worker.LOW_TRUST)
    work_answers = answered - 2  # after the 2 quiz answers
    assert 0 < work_answers < campaign.trust_check_every  # it was stopped at the end
    assert worker.trap_correct == 2 and worker.trust < 0.7  # every work trap missed
    assert not Answer.objects.filter(worker=worker, accepted_at__isnull=False).exists()
    end = cheat.done()
    assert campaign.screen_out_code in end.content.decode()
    assert not code_given(cheat, campaign)


def test_clip_wide_audio_urls_tell_a_worker_nothing(trapped_campaign):
    worker = Browser(trapped_campaign)
    worker.start(GENERIC.format(id="w1"))
    task = PreferenceTask.objects.get(key=worker.key)
    for clip_url in [task.example.query.clip.audio_url()] + [
        item.clip.audio_url() for item in task.example.items.all()
    ]:
        assert worker.get(clip_url).status_code == 404
    assert all(f"/audio/{worker.key}/" in url for url in worker.audio_urls())


# --- 3. Taking over another worker's session by their platform id ---------------------


def test_a_second_browser_with_a_prolific_id_gets_nothing_and_changes_nothing(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    victim = Browser(campaign)
    victim.start(f"PROLIFIC_PID={prolific_id('p1')}&STUDY_ID=s1&SESSION_ID=real")
    victim.answer("both_good")
    victim.task()
    before = Worker.objects.values().get(platform_id=prolific_id("p1"))

    attacker = Browser(campaign)
    refused = attacker.arrive(f"PROLIFIC_PID={prolific_id('p1')}&STUDY_ID=s1&SESSION_ID=evil")
    assert refused.status_code == 409
    assert "You already started this study in another browser" in refused.content.decode()
    assert f"earshot_w_{campaign.pk}" not in refused.cookies
    assert attacker.task().status_code == 403
    assert (
        attacker.post(
            f"/t/{campaign.token}/task/", {"key": victim.key, "choice": "b_better"}
        ).status_code
        == 403
    )
    assert attacker.done().status_code == 403
    assert Worker.objects.values().get(platform_id=prolific_id("p1")) == before  # unchanged

    assert victim.answer("both_bad").status_code == 302  # the victim works on
    assert Answer.objects.filter(worker__platform_id=prolific_id("p1")).count() == 2


def test_a_second_browser_with_an_mturk_worker_id_cannot_redirect_the_submission(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=1)
    victim = Browser(campaign)
    victim.start(
        "workerId=AW1&assignmentId=A1&hitId=H1&turkSubmitTo=https://workersandbox.mturk.com"
    )

    attacker = Browser(campaign)
    refused = attacker.arrive(
        "workerId=AW1&assignmentId=EVIL&hitId=H1&turkSubmitTo=https://www.mturk.com"
    )
    assert refused.status_code == 409
    worker = Worker.objects.get(platform_id="AW1")
    assert (worker.assignment_id, worker.turk_submit_to) == (
        "A1",
        "https://workersandbox.mturk.com",
    )

    victim.answer("a_better")
    html = victim.done().content.decode()
    assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in html
    assert 'name="assignmentId" value="A1"' in html


# --- 4. Coming back after being stopped ---------------------------------------------------


def test_a_stopped_worker_cannot_start_again_under_a_new_id_nor_the_old_one(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, trust_threshold=1.0)
    stopped = Browser(campaign)
    stopped.start(PROLIFIC.format(id=prolific_id("bad")))
    while stopped.key:  # miss the quiz
        task = PreferenceTask.objects.get(key=stopped.key)
        accepted = task.example.trap.accepted_answers
        wrong = next(c for c in ("a_better", "b_better", "both_good", "both_bad")
                     if choice_as_stored(c, swapped=task.swapped) not in accepted)  # fmt: skip
        stopped.answer(wrong)
        stopped.task()
    assert Worker.objects.get(platform_id=prolific_id("bad")).status == Worker.STOPPED
    workers = Worker.objects.count()

    again = stopped.arrive(
        PROLIFIC.format(id=prolific_id("fresh-id"))
    )  # the same browser, a new id
    assert again.status_code == 409
    assert "This browser has already taken part" in again.content.decode()
    assert Worker.objects.count() == workers

    same = stopped.arrive(PROLIFIC.format(id=prolific_id("bad")))  # the same browser and id
    assert same.status_code == 302
    assert stopped.task().url == f"/t/{campaign.token}/end/"
    assert campaign.screen_out_code in stopped.done().content.decode()

    elsewhere = Browser(campaign)  # the stopped id from a clean browser
    assert elsewhere.arrive(PROLIFIC.format(id=prolific_id("bad"))).status_code == 409
    assert not code_given(stopped, campaign) and not code_given(elsewhere, campaign)


# --- 5. Listening: a forged claim, and an answer with no audio fetched -----------------------


def test_a_forged_listened_seconds_on_the_assessor_page_is_refused(
    client, personas, settings, tmp_path
):
    from django.core.files.base import ContentFile

    from tests.helpers.audio_files import played, sine_wav

    settings.MEDIA_ROOT = tmp_path
    campaign = make_relevance_campaign(personas, must_listen_seconds=5)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entry = campaign.pool.filter(query=work.query).first()
    entry.clip.audio.save("c.wav", ContentFile(sine_wav(8.0)))
    url = f"/judge/assignments/{work.pk}/judgments"
    assessor = as_(client, personas.assessor)

    forged = post_json(assessor, url, {"candidate": entry.pk, "broad": 2, "fine": 90,
                                       "listened_seconds": 86_400, "plays": 0})  # fmt: skip
    assert forged.status_code == 400 and "Listen to at least 5 s" in forged.json()["detail"]
    assert not RelevanceJudgment.objects.exists()

    audio = played(
        assessor, f"/judge/assignments/{work.pk}/audio/{entry.pk}", HTTP_RANGE="bytes=0-"
    )
    assert audio.status_code == 206
    too_soon = post_json(
        assessor, url, {"candidate": entry.pk, "broad": 2, "listened_seconds": 86_400}
    )
    assert too_soon.status_code == 400  # sent a moment ago: not 5 s of listening yet
    AudioServed.objects.filter(assignment=work).update(
        first_sent_at=timezone.now() - timedelta(seconds=6)
    )
    honest = post_json(assessor, url, {"candidate": entry.pk, "broad": 2, "listened_seconds": 6})
    assert honest.status_code == 200 and RelevanceJudgment.objects.get().broad == 2


@pytest.fixture
def listening_campaign(audible_collection):
    return make_campaign(audible_collection, traps=0, listening_check=True, min_seconds_on_task=5)


def test_an_answer_with_no_audio_fetched_is_refused_and_not_stored(listening_campaign):
    worker = Browser(listening_campaign)
    worker.start(GENERIC.format(id="deaf"))
    worker.wait(60)

    refused = worker.answer("a_better", comment="great lists")
    html = refused.content.decode()
    assert refused.status_code == 400
    assert "Please listen before answering" in html
    assert "still to play: the query, list A, list B" in html
    assert re.search(r'value="a_better"[^>]*checked', html)  # the choice is kept
    assert "great lists" in html  # what the worker typed is kept
    assert not Answer.objects.exists()
    assert Worker.objects.get(platform_id="deaf").listening_refusals == 1

    worker.listen(query=True, per_list=0)
    still = worker.answer("a_better")
    assert still.status_code == 400 and "still to play: list A, list B" in still.content.decode()
    worker.listen()
    assert "one at a time" in worker.answer("a_better").content.decode()  # all at once: refused
    worker.wait(5)  # the query and a clip of each list, 1.5 s each, one at a time
    assert worker.answer("a_better").status_code == 302
    answer = Answer.objects.get()
    assert answer.clips_heard == 3  # the query and one clip of each list


def test_an_answer_right_after_the_audio_is_refused_until_the_minimum_time(listening_campaign):
    worker = Browser(listening_campaign)
    worker.start(GENERIC.format(id="quick"))
    worker.listen()
    quick = worker.answer("a_better")
    assert quick.status_code == 400 and "at least 5 seconds" in quick.content.decode()
    worker.wait(6)  # also the 3 clips' 1.5 s each, heard one at a time (4.5 s)
    assert worker.answer("a_better").status_code == 302


def test_audio_fetched_for_another_task_does_not_count(listening_campaign):
    worker = Browser(listening_campaign)
    worker.start(GENERIC.format(id="w1"))
    worker.listen(then_wait=6)
    assert worker.answer("a_better").status_code == 302
    first_urls = worker.audio_urls()
    worker.task()
    worker.wait(60)
    for url in first_urls:  # the answered task's audio: gone, and it would not count
        assert worker.get(url).status_code == 404
    assert worker.answer("a_better").status_code == 400


def _clips(example) -> dict[str, set[int]]:
    lists = {"a": set(), "b": set()}
    for side, clip_id in example.items.values_list("side", "clip_id"):
        lists[side].add(clip_id)
    return {"query": {example.query.clip_id}, **lists}


def test_audio_heard_in_an_earlier_task_or_by_another_worker_does_not_count(listening_campaign):
    """Examples of one query share clips (the query, and list A of two system pairs), so
    a worker who fetched everything in one task has fetched what another needs: the
    evidence still counts only for the task it was sent for."""
    campaign = listening_campaign
    examples = list(campaign.examples.select_related("query"))
    first, second = next(
        (e1, e2)
        for e1 in examples
        for e2 in examples
        if e1 != e2
        and e1.query_id == e2.query_id
        and all(_clips(e2)[k] & set().union(*_clips(e1).values()) for k in ("a", "b"))
    )  # fmt: skip
    worker = Browser(campaign)
    worker.start(GENERIC.format(id="w1"))
    task = PreferenceTask.objects.get(key=worker.key)
    PreferenceTask.objects.filter(pk=task.pk).update(example=first, swapped=False)
    worker.task()
    for url in worker.audio_urls():  # everything of the first example
        assert worker.get(url, HTTP_RANGE="bytes=0-").status_code == 206
    worker.wait(60)
    assert worker.answer("a_better").status_code == 302
    worker.task()
    PreferenceTask.objects.filter(key=worker.key).update(example=second, swapped=False)
    worker.wait(60)
    refused = worker.answer("a_better")  # every clip it needs was sent, for another task
    assert refused.status_code == 400 and "still to play: the query, list A, list B" in (
        refused.content.decode()
    )

    other = Browser(campaign)  # another worker on the example the first one heard fully
    other.start(GENERIC.format(id="w2"))
    PreferenceTask.objects.filter(key=other.key).update(example=first, swapped=False)
    other.wait(60)
    assert other.answer("a_better").status_code == 400
    assert Answer.objects.count() == 1


# --- 7. Closing the campaign ------------------------------------------------------------------


def test_closing_stops_every_worker_at_once_but_a_task_on_screen_can_be_answered(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=10)
    busy, idle = Browser(campaign), Browser(campaign)
    busy.start(PROLIFIC.format(id=prolific_id("busy")))
    busy.answer("a_better")
    busy.task()  # a second task on screen
    idle.arrive(PROLIFIC.format(id=prolific_id("idle")))
    idle.consent()  # consented, no task opened yet
    stale = Browser(campaign)
    stale.start(PROLIFIC.format(id=prolific_id("stale")))
    stale.wait(31 * 60)  # on screen for longer than the lease

    preference_campaign_open_set(campaign=campaign, is_open=False)
    tasks = PreferenceTask.objects.count()

    assert busy.answer("both_good").status_code == 302  # on screen, within its lease
    assert busy.task().url == f"/t/{campaign.token}/end/"  # nothing new after it
    assert campaign.completion_code in busy.done().content.decode()
    assert Answer.objects.filter(worker__platform_id=prolific_id("busy")).count() == 2

    assert idle.task().url == f"/t/{campaign.token}/end/"
    closed = idle.done()
    assert "This study is closed" in closed.content.decode()
    assert not code_given(idle, campaign)

    assert stale.answer("both_good").url == f"/t/{campaign.token}/end/"  # lease ran out
    assert not Answer.objects.filter(worker__platform_id=prolific_id("stale")).exists()
    assert "This study is closed" in stale.done().content.decode()

    newcomer = Browser(campaign)
    assert newcomer.arrive(PROLIFIC.format(id=prolific_id("new"))).status_code == 410
    assert PreferenceTask.objects.count() == tasks  # nobody was served anything new
