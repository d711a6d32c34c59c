"""The worker's pages through the task link: arrival, consent, task, feedback, done."""

import pytest

from crowd.models import Answer, PreferenceTask, Worker
from tests.helpers.crowd_fixtures import make_campaign, wrong_choice
from tests.helpers.crowd_http import key_of, open_task
from tests.helpers.platform_links import prolific_id

pytestmark = pytest.mark.django_db


def test_a_prolific_link_creates_the_worker_sets_the_cookie_and_asks_for_consent(
    client, crowd_collection
):
    campaign = make_campaign(crowd_collection)
    pid = "5F1E2D3C4B5A69788796A5B4"  # a Prolific id (in capitals: kept in small letters)
    response = client.get(f"/t/{campaign.token}/?PROLIFIC_PID={pid}&STUDY_ID=s1&SESSION_ID=x9")
    assert response.status_code == 302 and response.url == f"/t/{campaign.token}/consent/"
    assert f"earshot_w_{campaign.pk}" in response.cookies
    worker = Worker.objects.get()
    assert (worker.platform, worker.platform_id, worker.study_id, worker.session_id) == (
        "prolific", pid.lower(), "s1", "x9",
    )  # fmt: skip
    assert client.get(f"/t/{campaign.token}/task/").url == f"/t/{campaign.token}/consent/"


def test_a_link_without_an_id_or_a_forged_cookie_gets_no_task(client, crowd_collection):
    campaign = make_campaign(crowd_collection)
    assert client.get(f"/t/{campaign.token}/").status_code == 400
    client.cookies[f"earshot_w_{campaign.pk}"] = "1"
    assert client.get(f"/t/{campaign.token}/task/").status_code == 403


def test_consent_without_ticking_the_box_does_not_start(client, crowd_collection):
    campaign = make_campaign(crowd_collection)
    client.get(f"/t/{campaign.token}/?worker=w1")
    response = client.post(f"/t/{campaign.token}/consent/", {"token": "x"})
    assert response.status_code == 200
    assert Worker.objects.get().consented_at is None


def test_the_task_page_shows_the_four_answers_and_a_reload_shows_the_same_task(
    client, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    first = open_task(client, campaign)
    html = first.content.decode()
    for label in ("A is better", "B is better", "Both are equally good", "Both are equally bad"):
        assert label in html
    assert key_of(client.get(f"/t/{campaign.token}/task/")) == key_of(first)


def test_answering_records_the_sides_and_a_double_submit_creates_one_answer(
    client, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0)
    key = key_of(open_task(client, campaign))
    for _ in range(2):
        response = client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": "a_better"})
        assert response.status_code == 302 and response.url == f"/t/{campaign.token}/task/"
    answer = Answer.objects.get()
    assignment = PreferenceTask.objects.get(key=key)
    assert answer.swapped == assignment.swapped
    assert answer.outcome == ("b_better" if assignment.swapped else "a_better")


def test_a_wrong_quiz_answer_shows_the_accepted_answer_and_the_explanation(
    client, crowd_collection
):
    campaign = make_campaign(crowd_collection, quiz_length=4)
    key = key_of(open_task(client, campaign))
    task = PreferenceTask.objects.get(key=key)
    response = client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": wrong_choice(task)})
    assert response.url == f"/t/{campaign.token}/feedback/{key}/"
    feedback = client.get(response.url).content.decode()
    assert "The expected answer is" in feedback and "Trap " in feedback


def test_a_generic_worker_who_finishes_sees_the_completion_code(client, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=2)
    open_task(client, campaign)
    for _ in range(2):
        key = key_of(client.get(f"/t/{campaign.token}/task/"))
        client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": "both_bad"})
    response = client.get(f"/t/{campaign.token}/task/", follow=True)
    assert response.redirect_chain[-1][0] == f"/t/{campaign.token}/end/"  # no more tasks
    response = client.get(f"/t/{campaign.token}/done/")  # the end page's "Finish"
    assert campaign.completion_code in response.content.decode()


def test_a_prolific_worker_who_finishes_sees_the_code_then_is_sent_back_with_it(
    client, crowd_collection
):
    # Issue 12: an immediate redirect left a worker with nothing when it failed; the
    # page shows the code (and a copy button) and redirects after a few seconds.
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=1)
    link = f"PROLIFIC_PID={prolific_id('p1')}&STUDY_ID=s&SESSION_ID=x"
    key = key_of(open_task(client, campaign, link))
    client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": "both_bad"})
    response = client.get(f"/t/{campaign.token}/done/")
    html = response.content.decode()
    url = f"https://app.prolific.com/submissions/complete?cc={campaign.completion_code}"
    assert response.status_code == 200
    assert campaign.completion_code in html and "Copy code" in html
    assert f'href="{url}"' in html and f'data-redirect="{url}"' in html


def test_a_stopped_worker_sees_the_screen_out_code_not_the_completion_code(
    client, crowd_collection
):
    campaign = make_campaign(crowd_collection, quiz_length=2, trust_threshold=1.0)
    key = key_of(open_task(client, campaign))
    for _ in range(2):
        task = PreferenceTask.objects.get(key=key)
        client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": wrong_choice(task)})
        page = client.get(f"/t/{campaign.token}/task/", follow=True)
        if 'name="key"' in page.content.decode():
            key = key_of(page)
    html = client.get(f"/t/{campaign.token}/done/").content.decode()
    assert campaign.screen_out_code in html and campaign.completion_code not in html


def test_mturk_preview_shows_the_task_but_cannot_submit(client, crowd_collection):
    campaign = make_campaign(crowd_collection)
    response = client.get(f"/t/{campaign.token}/?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=h1")
    html = response.content.decode()
    assert response.status_code == 200 and "Accept the HIT" in html
    assert '<button type="submit" disabled' in html and 'name="key"' not in html
    assert not Worker.objects.exists()
    assert client.post(f"/t/{campaign.token}/task/", {"choice": "a_better"}).status_code == 403


def test_an_mturk_worker_completing_gets_a_form_posting_to_turk_submit_to(client, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=1)
    query = "assignmentId=A1&hitId=H1&workerId=AW1&turkSubmitTo=https://workersandbox.mturk.com"
    key = key_of(open_task(client, campaign, query))
    client.post(f"/t/{campaign.token}/task/", {"key": key, "choice": "both_bad"})
    html = client.get(f"/t/{campaign.token}/done/").content.decode()
    assert 'action="https://workersandbox.mturk.com/mturk/externalSubmit"' in html
    assert 'name="assignmentId" value="A1"' in html


def test_an_mturk_link_may_not_post_to_another_site(client, crowd_collection):
    campaign = make_campaign(crowd_collection)
    query = "assignmentId=A1&hitId=H1&workerId=AW1&turkSubmitTo=https://evil.example"
    assert client.get(f"/t/{campaign.token}/?{query}").status_code == 400


def test_task_pages_may_be_framed_by_mechanical_turk_only(client, crowd_collection):
    campaign = make_campaign(crowd_collection)
    response = open_task(client, campaign)
    assert "X-Frame-Options" not in response.headers
    policy = response.headers["Content-Security-Policy"].split("; ")
    assert (
        policy[-1] == "frame-ancestors 'self' https://www.mturk.com https://workersandbox.mturk.com"
    )
    assert "script-src 'self'" in policy  # the rest of the site's policy holds here too
    assert [d for d in policy if d.startswith("frame-ancestors")] == [policy[-1]]
