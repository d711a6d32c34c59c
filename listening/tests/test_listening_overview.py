"""The organiser's view of listening (issue 23, item 5): per worker and per assessor, the
coverage and time behind their answers and judgments, the headphone result, and a
satisfaction mapping made only of the answers whose every clip was heard.

Every figure is worked out by hand in a comment beside the audio the test has the server
send (or, for the hand-made cases, the rows of what it sent). The attack is replayed as a
script would make it: plain HTTP, one byte of every clip.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.test import override_settings
from django.utils import timezone

from catalog.models import RelevanceJudgment
from crowd import selectors
from crowd.models import Answer, PreferenceTask, Worker, choice_as_stored
from crowd.selectors import example_clips
from crowd.selectors import listening as listening_selectors
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from evaluation.models import MappingConfig, SatisfactionMapping
from evaluation.services import campaign_mapping_compute
from listening.models import AudioServed
from relevance.selectors import campaign_assessor_listening
from relevance.services.campaigns import assignment_next
from tests.helpers.audio_files import played, sine_wav
from tests.helpers.clients import as_, client_for, post_json
from tests.helpers.crowd_fixtures import arrive
from tests.helpers.crowd_http import Browser
from tests.helpers.listening_data import (
    SECONDS,
    WINDOW,
    clips_of,
    one_clip_lists_campaign,
    served,
)
from tests.helpers.mappings import MEASURE, campaign_scored_as_answers, check_hand_made
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("rules"),
]  # listening as computed below


def test_an_answer_with_two_of_three_clips_heard_or_too_little_time_is_not_every_clip_heard(
    three_answers,
):
    campaign, worker, tasks = three_answers
    heard = listening_selectors.answers_listening(answers=Answer.objects.filter(worker=worker))
    figures = [heard[t.answer.pk] for t in tasks]
    assert [(h.heard, h.clips) for h in figures] == [(2, 3), (3, 3), (3, 3)]
    assert [h.full for h in figures] == [False, True, False]
    assert [h.coverages for h in figures] == [(1.0, 1.0, 0.4), (0.6, 0.5, 1.0), (0.7, 0.7, 0.7)]
    assert [h.needed for h in figures] == [15, 15, 15]
    assert [h.seconds for h in figures] == pytest.approx(SECONDS)
    # The same clips count as heard as on the task page's marks (the SQL of example_clips).
    for task, h in zip(tasks, figures, strict=True):
        assert len(example_clips(task.example_id, task_id=task.pk).heard) == h.heard
    assert listening_selectors.answers_fully_heard(answers=Answer.objects.all()) == {
        tasks[1].answer.pk
    }

    [row] = selectors.worker_rows(campaign=campaign, workers=[worker])
    assert (row.listening.answers, row.listening.full) == (3, 1)
    assert row.listening.median_coverage == pytest.approx(0.7)
    assert row.listening.median_seconds == pytest.approx(12)
    assert row.listening.median_needed == 15
    assert row.headphones == "not screened"


def test_the_workers_page_and_api_show_the_listening_and_the_headphone_result(
    client, personas, three_answers
):
    campaign, worker, _ = three_answers
    Worker.objects.filter(pk=worker.pk).update(headphones=Worker.PASSED, headphones_right=5)
    client.login(username=personas.organiser.username, password=PASSWORD)
    page = client.get(f"/campaigns/{campaign.pk}/workers/").content.decode()
    for shown in ("every clip heard</abbr></a>: 1 of 3", "Coverage</abbr></a> per clip (median): 70 %",
                  "12.0 s", "every clip needs 15.0 s", "<td>passed: 5 of 6 right</td>"):  # fmt: skip
        assert shown in page
    api = client_for(personas.organiser)
    [body] = api.get(f"/api/campaigns/{campaign.pk}/workers/").json()["results"]
    assert body["answers_every_clip_heard"] == 1
    assert body["median_coverage"] == pytest.approx(0.7)
    assert body["median_listening_seconds"] == pytest.approx(12)
    assert body["median_listening_needed"] == 15


def test_any_number_of_answers_is_read_back_a_chunk_at_a_time(
    three_answers, monkeypatch, django_assert_num_queries
):
    """Memory stays bounded on a campaign's every answer (the mapping, the export): with
    chunks of 2, the three answers are read as 2 chunks: 1 statement for the answers, then
    2 per chunk (the lists, the audio sent), with the same figures."""
    _, _, tasks = three_answers
    whole = listening_selectors.answers_listening(answers=Answer.objects.all())
    monkeypatch.setattr(listening_selectors, "LISTENING_CHUNK", 2)
    with django_assert_num_queries(1 + 2 * 2):
        chunked = listening_selectors.answers_listening(answers=Answer.objects.all())
    assert chunked == whole and len(chunked) == 3
    assert listening_selectors.answers_fully_heard(answers=Answer.objects.all()) == {
        tasks[1].answer.pk
    }


def test_the_answers_export_says_which_answers_had_every_clip_heard(
    client, personas, three_answers
):
    """The same rule as the workers page: of the three hand-worked answers above, only the
    second (3 of 3 clips covered, 20 s ≥ 15 s) had every clip heard."""
    campaign, _, tasks = three_answers
    client.login(username=personas.organiser.username, password=PASSWORD)
    text = client.get(f"/campaigns/{campaign.pk}/answers.csv").content.decode()
    rows = {int(r["answer_id"]): r for r in csv.DictReader(io.StringIO(text))}
    assert [rows[t.answer.pk]["every_clip_heard"] for t in tasks] == ["0", "1", "0"]


def test_the_headphone_result_says_not_taken_yet_failed_or_not_screened(crowd_collection):
    campaign = one_clip_lists_campaign(crowd_collection)
    campaign.headphone_check = True
    campaign.save(update_fields=["headphone_check"])
    _new, failed, vouched = (arrive(campaign, name) for name in ("new", "deaf", "vouched"))
    Worker.objects.filter(pk=failed.pk).update(headphones=Worker.FAILED, headphones_right=3)
    Worker.objects.filter(pk=vouched.pk).update(trusted_by_organiser=True)
    workers = list(selectors.campaign_workers(campaign=campaign))
    rows = selectors.worker_rows(campaign=campaign, workers=workers)
    assert [r.headphones for r in rows] == ["not taken yet", "failed: 3 of 6 right", "not screened"]
    assert all(r.listening.answers == 0 and r.listening.median_coverage is None for r in rows)


# --- statements -------------------------------------------------------------------------

WORKER_ROWS = 4  # the answers' times and comments (1); the listening: answers, lists, audio (3)
ANSWERS_LISTENING = 3  # the answers with their query clips, the examples' lists, the audio sent
ASSESSOR_LISTENING = 2  # the audio sent for the campaign, the scored candidates


def test_the_workers_figures_take_the_same_statements_for_one_worker_or_many(
    crowd_collection, django_assert_num_queries
):
    campaign = one_clip_lists_campaign(crowd_collection, answers_per_example=3)
    workers = [arrive(campaign, f"w{n}") for n in range(3)]
    for worker in workers:
        for _ in range(3 if worker is workers[0] else 1):
            task = task_serve(worker=worker)
            answer_submit(worker=worker, key=task.key, choice="both_good")
            served(PreferenceTask.objects.get(pk=task.pk), clips_of(task)[0], sent=WINDOW,
                   before_answer=5)  # fmt: skip
    workers = list(selectors.campaign_workers(campaign=campaign))
    with django_assert_num_queries(WORKER_ROWS):
        selectors.worker_rows(campaign=campaign, workers=workers[:1])
    with django_assert_num_queries(WORKER_ROWS):
        rows = selectors.worker_rows(campaign=campaign, workers=workers)
    assert [r.listening.answers for r in rows] == [3, 1, 1]
    with django_assert_num_queries(ANSWERS_LISTENING):
        assert len(listening_selectors.answers_listening(answers=Answer.objects.all())) == 5


# --- the attack, replayed -----------------------------------------------------------------


def work_through(browser: Browser, *, wanted: dict[int, str], byte_range: str, wait: float):
    """Answer every task: the quiz right, each work example with ``wanted`` (about the
    stored lists) or "both good"; before each answer, fetch ``byte_range`` of every clip
    the page names and let ``wait`` seconds pass."""
    while browser.key:
        task = PreferenceTask.objects.select_related("example__trap").get(key=browser.key)
        for url in browser.audio_urls():
            assert browser.get(url, HTTP_RANGE=f"bytes={byte_range}").status_code == 206
        browser.wait(wait)
        stored = (
            task.example.trap.accepted_answers[0]
            if task.is_quiz
            else wanted.get(task.example_id, "both_good")
        )
        assert browser.answer(choice_as_stored(stored, swapped=task.swapped)).status_code == 302
        browser.task()


@pytest.fixture
def replayed(audible_collection):
    """The eight examples of ``evaluation.tests.test_campaign_mapping`` (with their λ) answered by two
    trusted workers (both pass the one-question quiz): ``honest`` plays every clip (each
    1.5 s long, its window all of it: 11 clips need 16.5 s) and takes 30 s; ``ranges``, a
    script, asks for one byte of every clip, waits 60 s and answers "both good" to all.
    The campaign's listening check is off, so both are accepted."""
    campaign, wanted = campaign_scored_as_answers(
        audible_collection, answers_per_example=2, listening_check=False
    )
    honest, script = Browser(campaign), Browser(campaign)
    honest.start("worker=honest")
    work_through(honest, wanted=wanted, byte_range="0-", wait=30)
    script.start("worker=ranges")
    work_through(script, wanted={}, byte_range="0-0", wait=60)
    return campaign


def test_a_worker_who_fetches_one_byte_of_each_clip_shows_no_answer_with_every_clip_heard(
    client, personas, replayed
):
    campaign = replayed
    workers = list(selectors.campaign_workers(campaign=campaign))
    honest, script = selectors.worker_rows(campaign=campaign, workers=workers)
    assert (honest.worker.platform_id, script.worker.platform_id) == ("honest", "ranges")
    assert (honest.listening.answers, honest.listening.full) == (9, 9)  # the quiz and 8
    assert (script.listening.answers, script.listening.full) == (9, 0)
    assert honest.listening.median_coverage == 1.0
    assert script.listening.median_coverage < 0.001  # one byte of a whole WAV file
    assert script.listening.median_seconds == pytest.approx(60, abs=2)
    assert script.listening.median_needed == pytest.approx(16.5)
    client.login(username=personas.organiser.username, password=PASSWORD)
    page = client.get(f"/campaigns/{campaign.pk}/workers/").content.decode()
    rows = page.split("<tr class=")
    [script_row] = [r for r in rows if ">ranges</a>" in r]
    assert "</a>: 0 of 9</li>" in script_row and "per clip (median): 0 %" in script_row
    [honest_row] = [r for r in rows if ">honest</a>" in r]
    assert "</a>: 9 of 9</li>" in honest_row and "per clip (median): 100 %" in honest_row


def test_the_mapping_with_every_clip_heard_leaves_out_the_scripts_answers(replayed):
    campaign = replayed
    accepted = Answer.objects.filter(example__campaign=campaign, accepted_at__isnull=False)
    assert accepted.count() == 16  # 8 work answers each; quiz answers never count
    # Filter off: 16 answers. The honest worker's eight are thesis-style (tests.
    # test_campaign_mapping: 4 nonpreferences → 8 lists, 4 preferences); the script's eight
    # "both good" label both lists of each example: 16 lists more, no preference.
    # 8 + 16 = 24 lists, 4 preferences; 8 of the 16 answers had every clip heard.
    campaign_mapping_compute(campaign=campaign)
    off = SatisfactionMapping.objects.get(campaign=campaign, measure=MEASURE).payload
    assert (off["n_answers"], off["n_lists"], off["n_preferences"]) == (16, 24, 4)
    assert off["listening"] == {"full_only": False, "answers": 16, "full": 8}
    # Filter on: only the honest worker's eight, so the mapping is the hand-made one.
    MappingConfig.objects.create(campaign=campaign, full_listening_only=True)
    campaign_mapping_compute(campaign=campaign)
    on = SatisfactionMapping.objects.get(campaign=campaign, measure=MEASURE).payload
    check_hand_made(on)
    assert on["listening"] == {"full_only": True, "answers": 16, "full": 8}
    assert on["n_examples"] == 8


def test_the_mapping_page_says_how_many_answers_had_every_clip_heard(client, personas, replayed):
    campaign = replayed
    MappingConfig.objects.create(campaign=campaign, full_listening_only=True)
    campaign_mapping_compute(campaign=campaign)
    client.login(username=personas.organiser.username, password=PASSWORD)
    url = f"/collections/{campaign.collection_id}/results/mapping/?campaign={campaign.pk}"
    page = client.get(url).content.decode()
    assert "8 of 16 accepted answers had" in page
    assert "; the mapping uses only those (" in page  # then the link to change it


# --- settings: the page, the API, the access rule -------------------------------------------


def test_the_setting_is_saved_from_the_page_and_the_api_and_asks_for_one_recompute(
    client, personas, crowd_collection, monkeypatch
):
    from evaluation.services import recompute

    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: None)
    campaign = one_clip_lists_campaign(crowd_collection)
    client.login(username=personas.organiser.username, password=PASSWORD)
    settings_url = f"/collections/{crowd_collection.pk}/results/settings/"
    form = {"form": "mapping", "campaign": campaign.pk, f"c{campaign.pk}-measures": MEASURE,
            f"c{campaign.pk}-full_listening_only": "on"}  # fmt: skip
    assert client.post(settings_url, form).status_code == 302
    assert MappingConfig.objects.get(campaign=campaign).full_listening_only is True
    checkbox = f'id="id_c{campaign.pk}-full_listening_only" checked>'
    assert checkbox in client.get(settings_url).content.decode()

    api = client_for(personas.organiser)
    url = f"/api/campaigns/{campaign.pk}/mapping/settings/"
    assert api.get(url).json() == {"measures": [MEASURE], "full_listening_only": True}
    off = api.post(url + "update/", {"full_listening_only": False}, format="json").json()
    assert off["changed"] is True and off["full_listening_only"] is False
    assert off["measures"] == [MEASURE]  # left out: left as it was
    again = api.post(url + "update/", {"full_listening_only": False}, format="json").json()
    assert again["changed"] is False


def test_another_organiser_finds_none_of_it(client, personas, crowd_collection, three_answers):
    campaign, _, _ = three_answers
    relevance = make_relevance_campaign(personas)
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    api = client_for(personas.other_organiser)
    pages = (
        f"/campaigns/{campaign.pk}/workers/",
        f"/campaigns/{campaign.pk}/",
        f"/relevance-campaigns/{relevance.pk}/",
        f"/collections/{crowd_collection.pk}/results/mapping/?campaign={campaign.pk}",
    )
    assert [client.get(url).status_code for url in pages] == [404] * 4
    apis = (
        f"/api/campaigns/{campaign.pk}/workers/",
        f"/api/campaigns/{campaign.pk}/mapping/settings/",
    )
    assert [api.get(url).status_code for url in apis] == [404] * 2
    update = f"/api/campaigns/{campaign.pk}/mapping/settings/update/"
    assert api.post(update, {"full_listening_only": True}, format="json").status_code == 404
    form = {"form": "mapping", "campaign": campaign.pk, f"c{campaign.pk}-full_listening_only": "on"}
    settings_page = f"/collections/{crowd_collection.pk}/results/settings/"
    assert client.post(settings_page, form).status_code == 404
    assert not MappingConfig.objects.filter(campaign=campaign).exists()


# --- assessors ----------------------------------------------------------------------------


def test_each_assessor_shows_the_judgments_with_the_clip_heard_and_the_time_per_candidate(
    client, personas, settings, tmp_path, django_assert_num_queries
):
    """No must-listen time (a campaign may have none), so a script's judgment is saved:
    the candidate whose audio sent was one byte shows as not heard.

    Three candidates scored 12 s, 16 s and 18 s after the assignment's first audio: the
    1st had 12/1 = 12 s, the 2nd 16/2 = 8 s, the 3rd 18/3 = 6 s each → median 8 s; the
    first two fully sent, the third one byte → 2 of 3 with the clip's coverage met."""
    settings.MEDIA_ROOT = tmp_path
    campaign = make_relevance_campaign(personas, must_listen_seconds=0)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entries = list(campaign.pool.filter(query=work.query).order_by("clip__external_id"))[:3]
    assessor = as_(client, personas.assessor)
    for entry, byte_range in zip(entries, ("0-", "0-", "0-0"), strict=True):
        entry.clip.audio.save(f"{entry.clip.external_id}.wav", ContentFile(sine_wav(2.0)))
        url = f"/judge/assignments/{work.pk}/audio/{entry.pk}"
        assert played(assessor, url, HTTP_RANGE=f"bytes={byte_range}").status_code == 206
        judged = post_json(
            assessor, f"/judge/assignments/{work.pk}/judgments", {"candidate": entry.pk, "broad": 1}
        )
        assert judged.status_code == 200
    start = timezone.now() - timedelta(minutes=5)
    AudioServed.objects.filter(assignment=work).update(first_sent_at=start)
    for entry, seconds in zip(entries, (12, 16, 18), strict=True):
        RelevanceJudgment.objects.filter(query=work.query, clip=entry.clip).update(
            created_at=start + timedelta(seconds=seconds)
        )

    with django_assert_num_queries(ASSESSOR_LISTENING):
        figures = campaign_assessor_listening(campaign=campaign)
    heard = figures[personas.assessor.pk]
    assert (heard.judged, heard.covered, heard.median_seconds) == (3, 2, pytest.approx(8))

    client.logout()
    client.login(username=personas.organiser.username, password=PASSWORD)
    page = client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    assert "<td>2 of 3</td>" in page and "8.0 s" in page and ">coverage</abbr>" in page


@override_settings(
    EARSHOT_LISTEN_WINDOW_SECONDS=20, EARSHOT_LISTEN_COVERAGE=0.8, EARSHOT_LISTEN_SECONDS_PER_CLIP=7
)
def test_the_glossary_states_this_installations_listening_rule(client, personas):
    client.force_login(personas.organiser)
    page = client.get("/glossary/").content.decode()
    assert "first 20 seconds" in page and "from 80 % of it" in page and "(7 s each" in page
