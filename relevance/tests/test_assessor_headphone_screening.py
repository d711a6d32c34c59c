"""The headphone screen for assessors of relevance campaigns (issue 23, item 2).

The listeners are the crowd test's (:mod:`crowd.tests.test_headphone_screening`): a script
answers each trial from the audio the server sent, over headphones (the left channel
alone) or over loudspeakers (L + R summed, where the antiphase tone cancels). Expected
numbers, from that module's doc: the headphone listener gets all 6 trials right, the
loudspeaker listener none (it always picks the antiphase foil). The pass mark is the
default 5 (``RelevanceCampaign.headphone_pass_mark``), tries are the first one and one
immediate retry (``AssessorScreen.FIRST_TRIES``).
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from catalog.models import RelevanceJudgment
from listening.models import AssessorScreen, AudioServed, HeadphoneTrial
from relevance.models import Assignment
from relevance.services.campaigns import assignment_next, relevance_campaign_create
from relevance.services.settings import relevance_campaign_update
from tests.helpers.clients import client_for, post_json
from tests.helpers.headphones import over_headphones, over_loudspeakers, screen_at
from tests.helpers.relevance_data import make_assessor, make_campaign

pytestmark = pytest.mark.django_db

AUDIO = re.compile(r'<audio[^>]* src="(/judge/campaigns/\d+/headphones/audio/([^"]+))"')


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def screen(client: Client, campaign, listener):
    """Calibrate, then answer every trial as ``listener`` hears it; the last response."""
    return screen_at(client, f"/judge/campaigns/{campaign.pk}/headphones", listener)


def fail_twice(client: Client, campaign) -> None:
    screen(client, campaign, over_loudspeakers)
    again = client.post(f"/judge/campaigns/{campaign.pk}/headphones/again/")
    assert again["Location"] == f"/judge/campaigns/{campaign.pk}/headphones/"
    screen(client, campaign, over_loudspeakers)


def judge(client: Client, work: Assignment, fine: int):
    entry = work.candidates().order_by("pk").first()
    return post_json(
        client, f"/judge/assignments/{work.pk}/judgments", {"candidate": entry.pk, "fine": fine}
    )


@pytest.fixture
def screened(personas):
    return make_campaign(personas, headphone_check=True)


def test_getting_work_leads_to_the_volume_calibration_before_any_query_is_taken(personas, screened):
    client = logged_in(personas.assessor)
    assert "This campaign needs headphones" in client.get("/").content.decode()  # said first
    response = client.post(f"/judge/campaigns/{screened.pk}/next/")
    assert response["Location"] == f"/judge/campaigns/{screened.pk}/headphones/"
    assert not Assignment.objects.filter(assessor=personas.assessor).exists()
    page = client.get(response["Location"]).content.decode()
    assert "set your volume to a comfortable level" in page
    assert "without them you cannot judge in this campaign" in page


def test_a_headphone_listener_passes_once_and_reaches_the_judging_page(personas, screened):
    client = logged_in(personas.assessor)
    last = screen(client, screened, over_headphones)
    work = Assignment.objects.get(assessor=personas.assessor)
    assert last["Location"] == f"/judge/assignments/{work.pk}/"
    assert "Candidate 1" in client.get(last["Location"]).content.decode()
    kept = AssessorScreen.objects.get(campaign=screened, assessor=personas.assessor)
    assert (kept.result, kept.right, kept.tries) == ("passed", 6, 1)
    assert judge(client, work, 70).status_code == 200
    # Once per campaign: the screen's pages send a passed assessor back to their work.
    assert client.get(f"/judge/campaigns/{screened.pk}/headphones/trial/")["Location"] == (
        f"/judge/campaigns/{screened.pk}/headphones/"
    )
    assert client.get(f"/judge/campaigns/{screened.pk}/headphones/")["Location"] == "/"


def test_a_loudspeaker_listener_fails_and_is_offered_one_retry(personas, screened):
    client = logged_in(personas.assessor)
    last = screen(client, screened, over_loudspeakers)
    assert last["Location"] == f"/judge/campaigns/{screened.pk}/headphones/"
    kept = AssessorScreen.objects.get(campaign=screened, assessor=personas.assessor)
    assert (kept.result, kept.right, kept.tries) == ("failed", 0, 1)
    page = client.get(last["Location"]).content.decode()
    assert "This campaign needs headphones" in page and "0 of your 6 answers" in page
    assert "Try the headphone check again" in page
    client.post(f"/judge/campaigns/{screened.pk}/headphones/again/")
    assert not HeadphoneTrial.objects.filter(screen=kept).exists()  # a new draw
    assert screen(client, screened, over_headphones)["Location"].startswith("/judge/assignments/")


def test_failing_twice_blocks_judging_and_keeps_what_was_judged_before(personas):
    """The check is turned on while the assessor is at work: their judgment stays, and
    no further one is saved — a POST to the judging endpoint, as the page, its queue of
    unsent saves or a script would send it, gets a 403 and changes nothing."""
    campaign = make_campaign(personas)
    client = logged_in(personas.assessor)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    assert judge(client, work, 40).status_code == 200
    relevance_campaign_update(campaign=campaign, changes={"headphone_check": True})
    before = list(RelevanceJudgment.objects.values_list("pk", "fine", "updated_at"))

    refused = judge(client, work, 90)
    assert refused.status_code == 403 and "needs headphones" in refused.json()["detail"]
    assert client.get(f"/judge/assignments/{work.pk}/")["Location"] == (
        f"/judge/campaigns/{campaign.pk}/headphones/"
    )
    fail_twice(client, campaign)
    page = client.get(f"/judge/campaigns/{campaign.pk}/headphones/").content.decode()
    assert "until the organiser lets you try again" in page
    assert "Try the headphone check again" not in page
    client.post(f"/judge/campaigns/{campaign.pk}/headphones/again/")  # no third try
    kept = AssessorScreen.objects.get(campaign=campaign, assessor=personas.assessor)
    assert (kept.result, kept.tries) == ("failed", 2)
    assert client.get(f"/judge/campaigns/{campaign.pk}/headphones/trial/")["Location"] == (
        f"/judge/campaigns/{campaign.pk}/headphones/"
    )
    assert client.get(f"/judge/campaigns/{campaign.pk}/headphones/calibration").status_code == 404

    for body in ({"fine": 90}, {"broad": 2}, {"listened_seconds": 30.0}):
        entry = work.candidates().order_by("pk").first()
        attack = post_json(
            client, f"/judge/assignments/{work.pk}/judgments", {"candidate": entry.pk, **body}
        )
        assert attack.status_code == 403
    assert list(RelevanceJudgment.objects.values_list("pk", "fine", "updated_at")) == before
    assert work.activity.get().listened_seconds == 0.0  # the first save sent none
    # Nor is any audio sent: listening on loudspeakers now would count towards the
    # must-listen rule once the screen is passed.
    served = AudioServed.objects.count()
    for which in ("query", str(work.candidates().order_by("pk").first().pk)):
        refused = client.get(f"/judge/assignments/{work.pk}/audio/{which}")
        assert refused.status_code == 403 and b"headphone check" in refused.content
    assert AudioServed.objects.count() == served


def test_the_organisers_retry_reopens_the_screen(client, personas, screened):
    assessor = logged_in(personas.assessor)
    fail_twice(assessor, screened)
    client.force_login(personas.organiser)
    url = f"/relevance-campaigns/{screened.pk}/assessors/{personas.assessor.pk}/headphones-again/"
    assert client.get(url).status_code == 405
    response = client.post(url)
    assert response["Location"] == f"/relevance-campaigns/{screened.pk}/"
    last = screen(assessor, screened, over_headphones)
    work = Assignment.objects.get(assessor=personas.assessor)
    assert last["Location"] == f"/judge/assignments/{work.pk}/"
    kept = AssessorScreen.objects.get(campaign=screened, assessor=personas.assessor)
    assert (kept.result, kept.right, kept.tries, kept.tries_allowed) == ("passed", 6, 3, 3)
    assert judge(assessor, work, 55).status_code == 200


def test_only_the_campaigns_organisers_let_an_assessor_try_again(personas, screened):
    fail_twice(logged_in(personas.assessor), screened)
    url = f"/relevance-campaigns/{screened.pk}/assessors/{personas.assessor.pk}/headphones-again/"
    assert logged_in(personas.other_organiser).post(url).status_code == 404
    assert logged_in(personas.assessor).post(url).status_code == 403
    kept = AssessorScreen.objects.get(campaign=screened, assessor=personas.assessor)
    assert (kept.result, kept.tries, kept.tries_allowed) == ("failed", 2, 2)


def test_another_assessors_trial_is_neither_heard_nor_answered(personas):
    bea = make_assessor("bea", owner=personas.organiser)
    campaign = make_campaign(personas, assessors=[personas.assessor, bea], headphone_check=True)
    owner, other = logged_in(personas.assessor), logged_in(bea)
    text = owner.get(f"/judge/campaigns/{campaign.pk}/headphones/trial/").content.decode()
    url, key = AUDIO.search(text).groups()
    other.get(f"/judge/campaigns/{campaign.pk}/headphones/trial/")
    assert other.get(url).status_code == 404
    other.post(f"/judge/campaigns/{campaign.pk}/headphones/trial/", {"key": key, "interval": "1"})
    trial = HeadphoneTrial.objects.get(key=key)
    assert (trial.chosen, trial.sent_at) == (None, None)
    outsider = logged_in(make_assessor("otto"))
    assert outsider.get(f"/judge/campaigns/{campaign.pk}/headphones/").status_code == 404


def test_without_the_check_the_screen_is_skipped(personas):
    campaign = make_campaign(personas)
    assert campaign.headphone_check is False  # off by default
    client = logged_in(personas.assessor)
    assert client.post(f"/judge/campaigns/{campaign.pk}/next/")["Location"].startswith(
        "/judge/assignments/"
    )
    assert client.get(f"/judge/campaigns/{campaign.pk}/headphones/calibration").status_code == 404
    assert not AssessorScreen.objects.exists()


def test_the_campaign_page_shows_each_assessors_screen_and_the_pass_rate(client, personas):
    bea, cy = make_assessor("bea"), make_assessor("cy")
    campaign = make_campaign(personas, assessors=[personas.assessor, bea, cy], headphone_check=True)
    screen(logged_in(personas.assessor), campaign, over_headphones)
    fail_twice(logged_in(bea), campaign)
    client.force_login(personas.organiser)
    page = client.get(f"/relevance-campaigns/{campaign.pk}/").content.decode()
    assert "Headphone check: 1 of 2 passed (50%) · pass mark 5 of 6" in page
    rows = {
        name: re.search(rf"<tr><td>{name}</td>(.*?)</tr>", page, re.S).group(1)
        for name in ("ada", "bea", "cy")
    }
    assert "passed 6/6" in rows["ada"]
    assert "failed 0/6, 2 tries" in rows["bea"] and "Let them try again" in rows["bea"]
    assert "not screened yet" in rows["cy"] and "Let them try again" not in rows["cy"]
    progress = client_for(personas.organiser).get(f"/api/relevance-campaigns/{campaign.pk}/")
    screens = {
        row["assessor"]: (row["headphones"], row["headphones_right"], row["headphone_tries"])
        for row in progress.json()["progress"]
    }
    assert screens == {"ada": ("passed", 6, 1), "bea": ("failed", 0, 2), "cy": ("", None, 0)}


def test_the_new_and_settings_forms_and_the_api_set_the_check(client, personas):
    client.force_login(personas.organiser)
    form = client.get("/relevance-campaigns/new/").content.decode()
    assert "Screen for headphones before judging" in form and "right answers out of 6" in form
    collection = make_campaign(personas).collection
    data = {
        "collection": collection.pk, "name": "Screened", "cutoff": 3, "assessors_per_query": 1,
        "must_listen_seconds": 0, "take_back_minutes": 60, "headphone_check": "on",
    }  # fmt: skip
    refused = client.post("/relevance-campaigns/new/", {**data, "headphone_pass_mark": 7})
    assert refused.status_code == 200 and "less than or equal to 6" in refused.content.decode()
    made = client.post("/relevance-campaigns/new/", data)  # the pass mark left empty: 5
    assert made.status_code == 302
    campaign = collection.relevance_campaigns.get(name="Screened")
    assert (campaign.headphone_check, campaign.headphone_pass_mark) == (True, 5)

    settings = client.get(f"/relevance-campaigns/{campaign.pk}/settings/").content.decode()
    assert "Screen for headphones before judging" in settings
    for mark in (0, 7):
        with pytest.raises(ValidationError):
            relevance_campaign_update(campaign=campaign, changes={"headphone_pass_mark": mark})
    campaign.refresh_from_db()
    assert campaign.headphone_pass_mark == 5
    with pytest.raises(ValidationError, match="1 to 6 right"):  # the service checks it too
        relevance_campaign_create(collection=collection, name="Bad", headphone_pass_mark=9)

    api = client_for(personas.organiser)
    changed = api.post(
        f"/api/relevance-campaigns/{campaign.pk}/settings/update/",
        {"headphone_check": False, "headphone_pass_mark": 6},
        format="json",
    )
    assert changed.status_code == 200
    assert (changed.json()["headphone_check"], changed.json()["headphone_pass_mark"]) == (False, 6)
    created = api.post(
        "/api/relevance-campaigns/create/",
        {"collection": collection.pk, "name": "By API", "headphone_check": True},
        format="json",
    )
    assert created.status_code == 201 and created.json()["headphone_check"] is True


def test_an_answer_without_the_pages_csrf_token_is_refused(personas, screened):
    client = Client(enforce_csrf_checks=True)
    client.force_login(personas.assessor)
    text = client.get(f"/judge/campaigns/{screened.pk}/headphones/trial/").content.decode()
    url, key = AUDIO.search(text).groups()
    client.get(url)
    answer = {"key": key, "interval": "1"}
    assert (
        client.post(f"/judge/campaigns/{screened.pk}/headphones/trial/", answer).status_code == 403
    )
    assert HeadphoneTrial.objects.get(key=key).chosen is None
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
    taken = client.post(
        f"/judge/campaigns/{screened.pk}/headphones/trial/",
        {**answer, "csrfmiddlewaretoken": token},
    )
    assert taken.status_code == 302 and HeadphoneTrial.objects.get(key=key).chosen == 1
