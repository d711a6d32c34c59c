"""The headphone screen (issue 23, item 2), replayed over plain HTTP by listening scripts.

A simulated listener is a script with a browser (:class:`tests.helpers.crowd_http.Browser`): it
opens the screen's pages, fetches each trial's audio over HTTP and answers from the
signal alone, as an ear would hear it:

- **over headphones** each ear hears its own channel: the script picks the interval
  whose *left channel alone* has the lowest RMS;
- **over loudspeakers** the two channels meet in the air: the script picks the interval
  whose *summed channels* (L + R) have the lowest RMS, where the antiphase tone cancels.

Expected numbers, by hand (Woods et al. 2017's design, :mod:`listening.headphones`): per
channel the target is 6 dB below the two other tones (RMS × 0.50) and the antiphase tone
is at full level, so the headphone listener finds the target on all 6 trials. Summed,
the plain tone doubles (RMS × 2), the target doubles from half (× 1), the antiphase tone
is exactly 0 (L = −R sample for sample): the loudspeaker listener picks the antiphase
tone — never the target — on all 6 trials, so 0 of 6 right.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from itertools import permutations

import pytest

from crowd.models import PreferenceCampaign, PreferenceTask, Worker
from crowd.services import headphones as screening
from crowd.services.settings import preference_campaign_update
from crowd.services.workers import worker_reinstate
from listening.headphones import INTERVALS, TRIALS, interval_bounds
from listening.models import HeadphoneTrial
from tests.helpers.clients import client_for
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.headphones import KEY, channels, over_headphones, over_loudspeakers, screen_at

pytestmark = pytest.mark.django_db

TRIAL_AUDIO = re.compile(r'<audio[^>]* src="(/t/[^"]+/headphones/audio/([^"]+))"')


def consented(campaign, worker="w1") -> Browser:
    browser = Browser(campaign)
    browser.arrive(f"worker={worker}")
    response = browser.consent()
    assert response.status_code == 302
    return browser


def screen(browser: Browser, listener, *, wrong_on: frozenset = frozenset()):
    """Calibrate, then answer every trial as ``listener`` hears it (on the trials in
    ``wrong_on``, the antiphase foil's loudspeaker answer instead); the last response."""
    return screen_at(browser, f"{browser.base}/headphones", listener, wrong_on=wrong_on)


@pytest.fixture
def screened_campaign(audible_collection):
    return make_campaign(audible_collection, traps=4, quiz_length=2, headphone_check=True)


def test_consent_leads_to_the_volume_calibration_when_the_campaign_screens(screened_campaign):
    browser = Browser(screened_campaign)
    browser.arrive("worker=w1")
    assert browser.consent()["Location"] == f"{browser.base}/headphones/"
    page = browser.get(f"{browser.base}/headphones/").content.decode()
    assert "set your volume to a comfortable level" in page


def test_a_headphone_listener_passes_and_reaches_the_quiz(screened_campaign):
    browser = consented(screened_campaign)
    last = screen(browser, over_headphones)
    assert last["Location"] == f"{browser.base}/task/"
    task = browser.task().content.decode()
    assert "Qualification question 1 of 2" in task
    worker = Worker.objects.get(platform_id="w1")
    assert (worker.headphones, worker.headphones_right, worker.status) == ("passed", 6, "active")


def test_a_loudspeaker_listener_fails_and_is_screened_out(screened_campaign):
    browser = consented(screened_campaign)
    last = screen(browser, over_loudspeakers)
    assert last["Location"] == f"{browser.base}/done/"
    worker = Worker.objects.get(platform_id="w1")
    assert (worker.status, worker.stop_reason, worker.headphones) == (
        "stopped",
        "headphones",
        "failed",
    )
    assert worker.headphones_right == 0  # every pick the antiphase foil (module doc)
    done = browser.done().content.decode()
    assert screened_campaign.screen_out_code in done and "headphone check" in done
    assert screened_campaign.completion_code not in browser.everything_seen()
    assert browser.task()["Location"] == f"{browser.base}/end/"  # no task, ever
    assert not PreferenceTask.objects.filter(worker=worker).exists()
    again = browser.get(f"{browser.base}/headphones/trial/")
    assert again["Location"] == f"{browser.base}/done/"  # no second try
    other_id = Browser(screened_campaign, address=browser.client.defaults["REMOTE_ADDR"])
    assert other_id.arrive("worker=w2").status_code == 409  # the same device, a new id


@pytest.mark.parametrize(("pass_mark", "outcome"), [(5, "passed"), (6, "failed")])
def test_five_right_pass_at_the_default_mark_and_fail_at_six(screened_campaign, pass_mark, outcome):
    preference_campaign_update(
        campaign=screened_campaign, changes={"headphone_pass_mark": pass_mark}
    )
    browser = consented(screened_campaign)
    screen(browser, over_headphones, wrong_on=frozenset({3}))  # 5 of 6 right
    worker = Worker.objects.get(platform_id="w1")
    assert (worker.headphones, worker.headphones_right) == (outcome, 5)


def test_the_page_and_the_audio_are_the_same_whatever_the_answer(screened_campaign):
    """Every arrangement of target and foil on the same trial: the page differs only by
    the trial's key, and the audio response's headers and length not at all."""
    browser = consented(screened_campaign)
    browser.get(f"{browser.base}/headphones/")
    pages, audio_headers, keys = set(), set(), set()
    first = None
    for target, antiphase in permutations(range(1, INTERVALS + 1), 2):
        if first is None:
            browser.get(f"{browser.base}/headphones/trial/")  # draws the trials
            first = HeadphoneTrial.objects.get(worker__platform_id="w1", position=1)
        key = f"k{target}{antiphase}" + "x" * 20  # a fresh key, as a new draw would have
        HeadphoneTrial.objects.filter(pk=first.pk).update(
            target=target, antiphase=antiphase, key=key
        )
        page = browser.get(f"{browser.base}/headphones/trial/")
        text = page.content.decode()
        url, url_key = TRIAL_AUDIO.search(text).groups()
        assert url_key == key and url == f"{browser.base}/headphones/audio/{key}"
        pages.add((page.status_code, str(sorted(page.headers.items())), text.replace(key, "KEY")))
        audio = browser.get(url)
        assert audio.status_code == 200
        audio_headers.add((str(sorted(audio.headers.items())), len(audio.content)))
        keys.add(key)
    assert len(keys) == 6
    assert len(pages) == 1 and len(audio_headers) == 1
    drawn = HeadphoneTrial.objects.filter(worker__platform_id="w1").values_list("key", flat=True)
    assert len(set(drawn)) == TRIALS and all(re.fullmatch(r"[\w-]{24}", k) for k in drawn[1:])


def test_the_answer_positions_are_drawn_evenly():
    """1,200 draws of (target, foil): each of the 6 arrangements is expected 200 times
    (binomial sd √(1200·⅙·⅚) ≈ 12.9); 140–260 is ±4.6 sd, missed by chance about once
    in 10⁵ runs."""
    counts = Counter(screening._two_of_three() for _ in range(1200))
    assert set(counts) == set(permutations(range(1, 4), 2))
    assert all(140 <= n <= 260 for n in counts.values())


def test_an_answer_before_the_audio_was_sent_is_refused(screened_campaign):
    browser = consented(screened_campaign)
    text = browser.get(f"{browser.base}/headphones/trial/").content.decode()
    key = KEY.search(text).group(1)
    refused = browser.post(f"{browser.base}/headphones/trial/", {"key": key, "interval": "1"})
    assert refused.status_code == 400
    assert "play the three tones" in html.unescape(refused.content.decode())
    assert HeadphoneTrial.objects.get(key=key).chosen is None


def test_another_workers_trial_is_neither_heard_nor_answered(screened_campaign):
    owner, other = consented(screened_campaign, "w1"), consented(screened_campaign, "w2")
    text = owner.get(f"{owner.base}/headphones/trial/").content.decode()
    url, key = TRIAL_AUDIO.search(text).groups()
    other.get(f"{other.base}/headphones/trial/")
    assert other.get(url).status_code == 404
    other.post(f"{other.base}/headphones/trial/", {"key": key, "interval": "1"})
    assert HeadphoneTrial.objects.get(key=key).chosen is None
    assert HeadphoneTrial.objects.get(key=key).sent_at is None


def test_an_unscreened_worker_gets_no_task_from_the_task_or_done_pages(screened_campaign):
    browser = consented(screened_campaign)
    assert browser.task()["Location"] == f"{browser.base}/headphones/"
    assert browser.done()["Location"] == f"{browser.base}/headphones/"
    assert not PreferenceTask.objects.exists()


def test_without_the_check_consent_leads_to_the_task_and_the_screen_is_skipped(
    audible_collection,
):
    campaign = make_campaign(audible_collection, traps=0)
    assert campaign.headphone_check is False  # off by default
    browser = Browser(campaign)
    browser.arrive("worker=w1")
    assert browser.consent()["Location"] == f"{browser.base}/task/"
    assert browser.get(f"{browser.base}/headphones/")["Location"] == f"{browser.base}/task/"
    assert browser.get(f"{browser.base}/headphones/calibration").status_code == 404


def test_a_reinstated_worker_is_not_screened_again(screened_campaign):
    browser = consented(screened_campaign)
    screen(browser, over_loudspeakers)
    worker_reinstate(worker=Worker.objects.get(platform_id="w1"))
    assert browser.task().status_code == 200
    assert "Qualification question 1 of 2" in browser.page.content.decode()


def test_the_calibration_noise_is_at_the_studys_loudness(screened_campaign):
    """The collection's loudness target (−18 LUFS here), measured by pyloudnorm's
    BS.1770-4 meter on the 16-bit file served; the tones' plain interval at the same."""
    import pyloudnorm

    collection = screened_campaign.collection
    collection.loudness_target = -18.0
    collection.save(update_fields=["loudness_target"])
    browser = consented(screened_campaign)
    noise = channels(browser.get(f"{browser.base}/headphones/calibration"))
    meter = pyloudnorm.Meter(22050)
    assert meter.integrated_loudness(noise) == pytest.approx(-18.0, abs=0.1)
    url, _ = TRIAL_AUDIO.search(
        browser.get(f"{browser.base}/headphones/trial/").content.decode()
    ).groups()
    trial = HeadphoneTrial.objects.get(worker__platform_id="w1", position=1)
    plain = ({1, 2, 3} - {trial.target, trial.antiphase}).pop()
    tones = channels(browser.get(url))
    assert meter.integrated_loudness(tones[slice(*interval_bounds(plain))]) == pytest.approx(
        -18.0, abs=0.1
    )


def test_the_pass_mark_is_one_to_six(screened_campaign):
    from django.core.exceptions import ValidationError

    for mark in (0, 7):
        with pytest.raises(ValidationError):
            preference_campaign_update(
                campaign=screened_campaign, changes={"headphone_pass_mark": mark}
            )


def test_the_campaign_page_shows_the_pass_rate(client, personas, screened_campaign):
    screen(consented(screened_campaign, "w1"), over_headphones)
    screen(consented(screened_campaign, "w2"), over_loudspeakers)
    consented(screened_campaign, "w3").get(f"/t/{screened_campaign.token}/headphones/trial/")
    client.force_login(personas.organiser)
    page = client.get(f"/campaigns/{screened_campaign.pk}/").content.decode()
    assert "1 of 2 passed (50%) · 1 taking it · pass mark 5 of 6" in page
    assert "stopped: failed the headphone check" in page
    listed = client_for(personas.organiser).get(f"/api/campaigns/{screened_campaign.pk}/workers/")
    results = {
        w["platform_id"]: (w["headphones"], w["headphones_right"]) for w in listed.json()["results"]
    }
    assert results == {"w1": ("passed", 6), "w2": ("failed", 0), "w3": ("", None)}


def test_the_new_campaign_form_turns_the_check_on(client, personas, audible_collection):
    client.force_login(personas.organiser)
    url = f"/collections/{audible_collection.pk}/campaigns/new/"
    form = client.get(url).content.decode()
    assert "Screen for headphones after consent" in form and "right answers out of 6" in form
    data = {
        "name": "Screened", "list_length": 5, "answers_per_example": 1,
        "max_answers_per_worker": 10, "quiz_length": 0, "trap_rate": 0.1,
        "trust_threshold": 0.7, "min_trap_answers": 3, "completion_code": "C1",
        "screen_out_code": "S1", "is_open": "on", "headphone_check": "on",
    }  # fmt: skip
    refused = client.post(url, {**data, "headphone_pass_mark": 7})
    assert refused.status_code == 200 and "less than or equal to 6" in refused.content.decode()
    assert client.post(url, data).status_code == 302  # the pass mark left empty: 5
    made = PreferenceCampaign.objects.get(name="Screened")
    assert (made.headphone_check, made.headphone_pass_mark) == (True, 5)
