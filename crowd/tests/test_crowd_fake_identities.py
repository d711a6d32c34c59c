"""Issue 22's attack replayed end to end with throwaway identities; each gains nothing.

The attacker has what a script has (:class:`tests.helpers.crowd_http.Browser`): the task link,
the pages, the audio URLs they name, the forms — and as many identities as it likes,
each a fresh cookie jar (and, where said, a fresh client address). What it tries, and
what it got before this issue (the issue's own figures, 90 scripted identities against
``make run``'s demo):

- **quiz learning** — 2 identities learnt all 3 quiz answers, every later one passed;
- **byte-hashing and sighting counts** — the first 8 KB of each clip link tasks across
  identities; trap questions were shown to every worker, so the most-sighted examples
  were exactly the work traps (3 of 3);
- **the screen-out oracle** — answer a suspected trap, see whether the next request is
  screened out: 3 of 3 trap answers learnt;
- **hoarding** — identities holding one task each (30-minute lease) took every slot; a
  real participant got the code after 2 quiz questions and honest workers idled.

Each test measures the same thing after the change. The tests read the database only
to score the attacker (which examples were traps, and their accepted answers), never
to help it. Issue 29's stronger replay, 114 identities against the demo, is
``crowd/tests/test_crowd_many_identities.py``. This module is long because it replays each of
issue 22's attacks with the set-up it needs spelled out.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from datetime import timedelta
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils import timezone

from catalog.models import RelevanceJudgment
from crowd.models import (
    CHOICE_LABELS,
    PreferenceCampaign,
    PreferenceTask,
    TrapQuestion,
    Worker,
    choice_as_stored,
)
from crowd.services import workers as workers_service
from crowd.services.settings import preference_campaign_open_set
from tests.helpers.audio_files import sine_wav
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign, right_choice, wrong_choice
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import prolific_id

pytestmark = pytest.mark.django_db

CHOICES = list(CHOICE_LABELS)  # a_better, b_better, both_good, both_bad
ATTACKER = "10.66.0.1"  # one machine, one browser: every identity a new cookie jar only
SCRIPT_UA = "python-requests/2.32"


@pytest.fixture(autouse=True)
def seeded_workers(monkeypatch):
    """Workers' secret seeds (their example order and sides) from a fixed generator, so
    every run replays the same attack; the server's rules are what is measured."""
    draws = random.Random(22)
    monkeypatch.setattr(workers_service.secrets, "randbits", draws.getrandbits)


@pytest.fixture
def distinct_audio(crowd_collection, settings, tmp_path):
    """Every clip with audio of its own (a tone per clip), so hashing bytes tells clips apart."""
    settings.MEDIA_ROOT = tmp_path
    for i, clip in enumerate(crowd_collection.clips.order_by("pk")):
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(sine_wav(0.5, freq=200 + 7 * i)))
    return crowd_collection


def identity(campaign, n: int, *, own_address: bool = False) -> Browser:
    """A throwaway identity: a new cookie jar, on the attacker's machine unless told. One
    told the study is full before consenting (issue 29) has no task (``key`` None)."""
    browser = (
        Browser(campaign)
        if own_address
        else Browser(campaign, address=ATTACKER, user_agent=SCRIPT_UA)
    )
    browser.arrive(f"PROLIFIC_PID={prolific_id(f'fake{n:03d}')}&STUDY_ID=S&SESSION_ID=s{n}")
    consent = browser.get(f"{browser.base}/consent/")
    if "This study is full" in consent.content.decode():
        browser.page = consent
        return browser
    browser.consent()
    browser.task()
    return browser


def task_of(browser) -> PreferenceTask:
    """For scoring only: the task on the attacker's screen."""
    return PreferenceTask.objects.select_related("example").get(key=browser.key)


def answer_quiz_right(browser) -> None:
    """The quiz is not secret (its feedback teaches): answer it as one who learnt it."""
    while browser.key and task_of(browser).is_quiz:
        browser.answer(right_choice(task_of(browser)))
        browser.task()


def bytes_signature(browser) -> frozenset[str]:
    """What the byte-hashing attack links tasks by: the first 8 KB of every clip on the page."""
    hashes = set()
    for url in browser.audio_urls():
        response = browser.get(url, HTTP_RANGE="bytes=0-8191")
        hashes.add(hashlib.sha256(response.received).hexdigest())
    return frozenset(hashes)


def expected_precision(counts: dict, truth: set, flagged: int) -> Fraction:
    """Expected precision of flagging the ``flagged`` most-sighted examples, ties broken
    at random: examples above the cut-off count are flagged for sure, those at it in
    proportion."""
    ranked = sorted(counts.values(), reverse=True)
    cut = ranked[flagged - 1]
    above = [k for k, c in counts.items() if c > cut]
    tied = [k for k, c in counts.items() if c == cut]
    share = Fraction(flagged - len(above), len(tied))
    hits = sum(1 for k in above if k in truth) + share * sum(1 for k in tied if k in truth)
    return hits / flagged


# --- 1. exposure parity: pools large enough, refused otherwise ---------------------------


def test_a_campaign_whose_trap_pools_are_too_small_is_not_opened_and_says_how_many(
    crowd_collection,
):
    # 12 examples: 3 quiz + 1 work trap leave 8 ordinary examples, and a trap rate of 0.2
    # needs ceil(8 * 0.2 / 0.8) = 2 work traps (crowd.selectors.integrity.PoolNeeds). The
    # quiz needs no pool: the judgments make each worker's questions (issue 29), unless
    # they cannot (every clip at 50: no list clearly good or bad), and then one quiz, 2.
    campaign = make_campaign(crowd_collection, traps=4, quiz_traps=3, quiz_length=2, trap_rate=0.2)
    preference_campaign_open_set(campaign=campaign, is_open=False)
    with pytest.raises(ValidationError) as refused:
        preference_campaign_open_set(campaign=campaign, is_open=True)
    message = " ".join(refused.value.messages)
    assert "has 1 trap question and needs 2" in message and "quiz" not in message
    RelevanceJudgment.objects.filter(query__collection=crowd_collection).update(fine=50)
    campaign.quiz_length = 4
    campaign.save(update_fields=["quiz_length"])
    with pytest.raises(ValidationError) as refused:
        preference_campaign_open_set(campaign=campaign, is_open=True)
    message = " ".join(refused.value.messages)
    assert "cannot make quiz questions" in message and "one quiz needs 4" in message
    campaign.refresh_from_db()
    assert not campaign.is_open


def test_a_campaign_asked_for_open_but_created_empty_starts_closed_and_admits_no_one(
    crowd_collection, personas, client
):
    """The gap of the opening rule: created "open" with no examples, a campaign was filled
    afterwards and workers met a quiz from a pool that a few identities learn. Since
    issue 29 a quiz needs no pool where the judgments make each worker's questions; where
    they cannot (every clip judged 50 here), one quiz's worth, 2."""
    RelevanceJudgment.objects.filter(query__collection=crowd_collection).update(fine=50)
    client.force_login(personas.organiser)
    form = {"name": "Live", "list_length": 5, "answers_per_example": 3, "quiz_length": 2,
            "max_answers_per_worker": 10, "trap_rate": 0.1, "trust_threshold": 0.7,
            "min_trap_answers": 3, "completion_code": "DONE1", "screen_out_code": "OUT1",
            "is_open": "on"}  # fmt: skip
    page = client.post(f"/collections/{crowd_collection.pk}/campaigns/new/", form, follow=True)
    campaign = PreferenceCampaign.objects.get(name="Live")
    assert not campaign.is_open
    shown = " ".join(str(m) for m in page.context["messages"])
    assert "created closed: " in shown and "one quiz needs 2" in shown
    arrival = Browser(campaign).arrive("worker=early-bird")
    assert arrival.status_code == 410  # the study's closed page, not a quiz
    api = client_for(personas.organiser).post(
        f"/api/collections/{crowd_collection.pk}/campaigns/create/", {**form, "name": "Api",
        "is_open": True}, format="json",
    )  # fmt: skip
    assert api.status_code == 201 and api.json()["is_open"] is False
    assert "one quiz needs 2" in " ".join(api.json()["closed_because"])
    without_quiz = {**form, "name": "No quiz", "quiz_length": 0}
    client.post(f"/collections/{crowd_collection.pk}/campaigns/new/", without_quiz)
    empty = PreferenceCampaign.objects.get(name="No quiz")
    assert empty.is_open  # nothing to learn: as asked, and nobody gets a task from it
    browser = Browser(empty)
    browser.arrive("worker=early-bird")
    assert "This study is full" in browser.get(f"{browser.base}/consent/").content.decode()


# --- 2. byte-hashing and sighting counts ----------------------------------------------------


def test_linking_tasks_by_audio_bytes_and_counting_sightings_flags_traps_at_chance(
    distinct_audio,
):
    # 12 examples: 4 quiz questions (a quiz of 1 sees a quarter of the pool), 2 work traps,
    # 6 ordinary examples; trap rate 0.25 needs ceil(6 * 0.25 / 0.75) = 2 work traps; every
    # example for 2 workers.
    campaign = make_campaign(
        distinct_audio, traps=6, quiz_traps=4, quiz_length=1, trap_rate=0.25,
        answers_per_example=2, trust_threshold=0.5, max_answers_per_worker=4,
    )  # fmt: skip
    preference_campaign_open_set(campaign=campaign, is_open=False)
    preference_campaign_open_set(campaign=campaign, is_open=True)  # the pools are large enough

    sightings: Counter = Counter()
    truth: dict[frozenset, bool] = {}
    quiz_seen: list[int] = []
    for n in range(12):
        fake = identity(campaign, n, own_address=True)
        quiz_seen.append(0)
        while fake.key:
            task = task_of(fake)
            signature = bytes_signature(fake)
            if task.is_quiz:
                quiz_seen[-1] += 1
            else:
                sightings[signature] += 1
                truth[signature] = hasattr(task.example, "trap")
            fake.answer(right_choice(task))  # it answers well: nobody is stopped
            fake.task()

    work_mode = campaign.examples.exclude(trap__pool=TrapQuestion.QUIZ).count()
    assert len(sightings) == work_mode == 8  # the bytes did link every task to its example
    assert max(quiz_seen) == 1  # each identity saw 1 of the 4 quiz questions: 25 %
    trap_counts = {c for s, c in sightings.items() if truth[s]}
    plain_counts = {c for s, c in sightings.items() if not truth[s]}
    assert trap_counts == plain_counts == {2}  # seen by as many identities: no signal
    traps = {s for s, is_trap in truth.items() if is_trap}
    base_rate = Fraction(len(traps), len(sightings))  # 2 of 8
    assert expected_precision(sightings, traps, flagged=2) == base_rate == Fraction(1, 4)


# --- 3. the screen-out oracle ---------------------------------------------------------------


def oracle_campaign(crowd_collection, trust_check_every: int):
    # 6 work traps, 6 ordinary examples: trap rate 0.5 needs ceil(6 * 0.5 / 0.5) = 6.
    # Trust threshold 1: one missed trap is below it. Each example for 4 workers, so the
    # pooled identities can try each of the four answers on a trap question.
    return make_campaign(
        crowd_collection, traps=6, quiz_traps=0, trap_rate=0.5, answers_per_example=4,
        min_trap_answers=1, trust_threshold=1.0, trust_check_every=trust_check_every,
    )  # fmt: skip


def run_oracle(campaign, identities: int) -> tuple[list[bool], list[bool]]:
    """Each identity answers its first task with a guess and asks at once whether it was
    screened out; "not screened out" is read as "the guess was right". The identities
    pool what they see: a task is linked to the ones before it by its audio bytes, and
    each new sighting of an example tries the next of the four answers. Returns, per
    trap question answered, whether the guess was right and whether the attacker
    believes it was."""
    tried: Counter = Counter()
    right, believed = [], []
    for n in range(identities):
        fake = identity(campaign, n, own_address=True)  # a fresh address too: no device rule
        if not fake.key:
            break
        task = task_of(fake)
        signature = bytes_signature(fake)
        guess = CHOICES[tried[signature] % 4]
        tried[signature] += 1
        fake.answer(guess)
        screened_out = campaign.screen_out_code in fake.done().content.decode()
        trap = getattr(task.example, "trap", None)
        if trap is not None:
            right.append(trap.accepts(choice_as_stored(guess, swapped=task.swapped)))
            believed.append(not screened_out)
    return right, believed


def test_being_screened_out_right_after_a_trap_would_teach_its_answer(distinct_audio):
    # The control: a checkpoint after every answer is the behaviour before issue 22. The
    # oracle then tells every right guess from every wrong one.
    right, believed = run_oracle(oracle_campaign(distinct_audio, 1), identities=40)
    assert len(right) >= 4 and False in right and True in right
    assert believed == right  # every right and every wrong guess is told: 100 % accurate


def test_the_screen_out_oracle_learns_nothing_beyond_its_own_guesses(distinct_audio):
    right, believed = run_oracle(oracle_campaign(distinct_audio, 10), identities=40)
    assert len(right) >= 4 and False in right and True in right  # right and wrong guesses...
    assert all(believed)  # ...and nothing after any single answer said so
    learnt_right = sum(r for r, b in zip(right, believed, strict=True) if b)
    # The "learnt" answers are exactly the guesses: as right as guessing, no better.
    assert Fraction(learnt_right, sum(believed)) == Fraction(sum(right), len(right))


def test_a_stopped_workers_end_page_is_the_one_of_a_worker_who_ran_out_of_tasks(
    crowd_collection,
):
    # Every example a trap question, so every task is one: the cheat misses both of its
    # 2 tasks, the honest worker gets both right; the checkpoint is the 2nd answer.
    campaign = make_campaign(
        crowd_collection, traps=12, quiz_traps=0, trap_rate=1.0, answers_per_example=2,
        min_trap_answers=1, trust_threshold=1.0, trust_check_every=2, max_answers_per_worker=2,
    )  # fmt: skip
    pages = {}
    for name, honest in (("honest", True), ("cheat", False)):
        browser = Browser(campaign)
        browser.start(f"worker={name}")
        while browser.key:
            task = task_of(browser)
            browser.answer(right_choice(task) if honest else wrong_choice(task))
            last = browser.task()
        assert last.status_code == 302 and last.url == f"/t/{campaign.token}/end/"
        pages[name] = browser.end().content
    assert Worker.objects.get(platform_id="cheat").status == Worker.STOPPED
    assert Worker.objects.get(platform_id="honest").status == Worker.FINISHED
    assert pages["honest"] == pages["cheat"]  # the same bytes until they ask to finish


# --- 4. quiz learning ---------------------------------------------------------------------


def test_identities_that_pool_the_quiz_feedback_learn_nothing_the_next_one_is_asked(
    crowd_collection,
):
    # Issue 29: every quiz question goes to one worker — the quiz pool's 8 to the first
    # four identities, then questions made from the judgments — so 20 identities' feedback
    # (40 answers, all right) covers none of the questions the next identity is asked.
    campaign = make_campaign(
        crowd_collection, traps=10, quiz_traps=8, quiz_length=2, trap_rate=0.5,
        answers_per_example=30, trust_threshold=0.7, trust_check_every=2,
        max_answers_per_worker=6,
    )  # fmt: skip
    learnt: dict[int, str] = {}
    for n in range(20):  # harvest the quiz's feedback
        fake = identity(campaign, n, own_address=True)
        while fake.key and task_of(fake).is_quiz:
            task = task_of(fake)
            response = fake.answer("a_better")
            feedback = fake.get(response.url).content.decode()
            shown = re.search(r"The expected answer is “([^”]+)”", feedback)
            label = shown.group(1) if shown else CHOICE_LABELS["a_better"]  # "Right"
            shown_choice = next(c for c, text in CHOICE_LABELS.items() if text == label)
            learnt[task.example_id] = choice_as_stored(shown_choice, swapped=task.swapped)
            fake.task()
    quiz = dict(
        TrapQuestion.objects.filter(pool="quiz").values_list("example_id", "accepted_answers")
    )
    assert len(learnt) == 40 and all([learnt[e]] == quiz[e] for e in learnt)  # all learnt
    work = set(TrapQuestion.objects.filter(pool="work").values_list("example_id", flat=True))
    assert not set(learnt) & work  # and it taught nothing about the work pool

    # The next identity's quiz: questions nobody else was asked, so the 40 answers cover
    # none of them; "both equally bad" from a script that does not listen misses both
    # (made questions are "A better", "B better", "both good" or "both bad" at random).
    cheat = identity(campaign, 99, own_address=True)
    asked = []
    while cheat.key and task_of(cheat).is_quiz:
        asked.append(task_of(cheat).example_id)
        cheat.answer("both_bad")
        cheat.task()
    assert len(asked) == 2 and not set(asked) & set(learnt)
    assert PreferenceTask.objects.filter(example_id__in=asked).count() == 2  # its own only


# --- 5. hoarding ------------------------------------------------------------------------------


def test_hoarding_identities_leave_a_paid_participant_with_work_and_their_leases_end(
    crowd_collection, settings
):
    settings.EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR = 8
    # 4 quiz questions (a quiz of 1), 8 ordinary examples, each for 1 worker; no work traps.
    campaign = make_campaign(
        crowd_collection, traps=4, quiz_traps=4, quiz_length=1, trap_rate=0.0,
        answers_per_example=1, min_work_answers=2, max_answers_per_worker=4,
    )  # fmt: skip
    hoarders = []
    for n in range(8):  # the cap: 8 new ids from the attacker's address this hour
        fake = identity(campaign, n)
        answer_quiz_right(fake)
        assert fake.key and not task_of(fake).is_quiz  # it holds one work task
        assert fake.task().content == fake.page.content  # one open task: a reload is the same
        hoarders.append(fake)
    refused = Browser(campaign, address=ATTACKER, user_agent=SCRIPT_UA).arrive(
        f"PROLIFIC_PID={prolific_id('fake999')}"
    )
    assert refused.status_code == 429
    assert "Too many new participants from your network" in refused.content.decode()
    assert not Worker.objects.filter(platform_id=prolific_id("fake999")).exists()

    for fake in hoarders:  # they keep their page beating: their leases do not end
        assert fake.alive().status_code == 204
    # ...and hold their tasks for longer than anyone answering takes (TASK_BEYOND_AFTER, 2 min).
    held = [task_of(fake).pk for fake in hoarders]
    PreferenceTask.objects.filter(pk__in=held).update(
        served_at=timezone.now() - timedelta(minutes=5)
    )
    real = Browser(campaign)
    real.start(f"PROLIFIC_PID={prolific_id('real')}&STUDY_ID=S&SESSION_ID=r1")
    answer_quiz_right(real)
    work_done = 0
    while real.key:  # every slot is leased: served beyond redundancy, not idle
        real.answer(right_choice(task_of(real)))
        work_done += 1
        real.task()
    assert work_done == 3  # the cap of 4 tasks, after 1 quiz question
    assert campaign.completion_code in real.done().content.decode()

    # Hoarders that stop beating lose their slots after TASK_HEARTBEAT_LEASE (3 minutes).
    held = [task_of(fake).example_id for fake in hoarders]  # their examples now
    PreferenceTask.objects.filter(example_id__in=held).update(
        alive_at=timezone.now() - timedelta(minutes=4)
    )
    honest = Browser(campaign)
    honest.start(f"PROLIFIC_PID={prolific_id('honest2')}&STUDY_ID=S&SESSION_ID=h2")
    answer_quiz_right(honest)
    assert task_of(honest).example_id in held
    assert task_of(honest).example.slots_taken == 1  # its slot came back: not beyond


# --- 6. browsers ------------------------------------------------------------------------------


def test_a_link_with_another_id_does_not_take_over_a_browsers_session(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    browser = Browser(campaign)
    browser.start(f"PROLIFIC_PID={prolific_id('first')}&STUDY_ID=S&SESSION_ID=one")
    key = browser.key
    other = browser.arrive(f"PROLIFIC_PID={prolific_id('second')}&STUDY_ID=S&SESSION_ID=two")
    assert other.status_code == 409
    assert "under another id" in other.content.decode()
    assert not Worker.objects.filter(platform_id=prolific_id("second")).exists()
    assert browser.task().status_code == 200 and browser.key == key  # the first id works on


def test_a_stopped_workers_device_cannot_start_again_under_a_new_id_with_cookies_cleared(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, quiz_traps=4)
    stopped = Browser(campaign, address="10.77.0.5", user_agent="Firefox/140")
    stopped.start(f"PROLIFIC_PID={prolific_id('bad')}&STUDY_ID=S&SESSION_ID=b1")
    while stopped.key:
        task = task_of(stopped)
        accepted = task.example.trap.accepted_answers
        wrong = next(
            c for c in CHOICES if choice_as_stored(c, swapped=task.swapped) not in accepted
        )
        stopped.answer(wrong)
        stopped.task()
    assert Worker.objects.get(platform_id=prolific_id("bad")).status == Worker.STOPPED
    cleared = Browser(campaign, address="10.77.0.5", user_agent="Firefox/140")  # no cookies
    again = cleared.arrive(f"PROLIFIC_PID={prolific_id('fresh')}&STUDY_ID=S&SESSION_ID=f1")
    assert again.status_code == 409 and "already taken part" in again.content.decode()
    assert not Worker.objects.filter(platform_id=prolific_id("fresh")).exists()
    elsewhere = Browser(campaign, address="10.77.0.6", user_agent="Firefox/140")
    assert (
        elsewhere.arrive(
            f"PROLIFIC_PID={prolific_id('fresh')}&STUDY_ID=S&SESSION_ID=f1"
        ).status_code
        == 302
    )
