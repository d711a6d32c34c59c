"""Organiser pages of a preference campaign: progress, workers, trap questions, CSV."""

import csv
import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from crowd import selectors
from crowd.exports import ANSWERS_CSV_COLUMNS
from crowd.models import PreferenceCampaign, Worker
from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from tests.helpers.crowd_fixtures import arrive, make_campaign, right_choice, wrong_choice
from tests.helpers.plain_words import problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign_with_answers(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, trust_threshold=0.75)
    good, bad = arrive(campaign, "good-worker"), arrive(campaign, "bad-worker")
    # The careless one first: the quiz pool's two questions go to them (each quiz question
    # goes to one worker: issue 29), so the page's trap table shows their misses.
    for worker, careless in ((bad, True), (good, False)):
        for _ in range(4):
            task = task_serve(worker=worker)
            if task is None:
                break
            choice = wrong_choice(task) if careless else right_choice(task)
            answer_submit(
                worker=worker, key=task.key, choice=choice, comment=f"{worker.platform_id} here"
            )
    return campaign


def test_only_the_collections_organiser_sees_the_campaign(client, personas, campaign_with_answers):
    url = f"/campaigns/{campaign_with_answers.pk}/"
    assert client.get(url).status_code == 302  # anonymous: log in first
    client.force_login(personas.other_organiser)
    assert client.get(url).status_code == 404
    assert client.get(url + "answers.csv").status_code == 404
    client.force_login(personas.assessor)
    assert client.get(url).status_code == 403


def test_the_campaign_page_shows_progress_workers_and_trap_miss_rates(
    client, personas, campaign_with_answers
):
    client.force_login(personas.organiser)
    html = client.get(f"/campaigns/{campaign_with_answers.pk}/").content.decode()
    assert f"/t/{campaign_with_answers.token}/" in html
    assert "good-worker" in html and "bad-worker" in html
    assert "stopped: low trust" in html and "good-worker here" in html
    top = selectors.campaign_trap_questions(campaign=campaign_with_answers).first()
    assert top.missed >= 1
    assert "Forgive (trap" in html and f"{round(100 * top.missed / top.seen)}%" in html


def test_the_campaign_page_explains_each_column_of_the_examples_csv(
    client, personas, campaign_with_answers
):
    """Issue 31: "columns query,list_a,list_b[,accepted_answers,explanation]", unexplained."""
    client.force_login(personas.organiser)
    html = client.get(f"/campaigns/{campaign_with_answers.pk}/").content.decode()
    assert "query,list_a,list_b[" not in html
    assert "<dt><code>list_a</code>, <code>list_b</code></dt><dd>the two lists" in html
    assert "<dt><code>a_better</code></dt><dd>list A is better</dd>" in html
    assert not [p for p in problems(html) if "column name" in p]


def test_forgiving_a_trap_question_from_the_page_corrects_trust_and_reinstating_brings_back(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=4, quiz_length=2, trust_threshold=0.75)
    worker = arrive(campaign)
    task = task_serve(worker=worker)
    answer_submit(worker=worker, key=task.key, choice=wrong_choice(task))
    task2 = task_serve(worker=worker)
    answer_submit(worker=worker, key=task2.key, choice=right_choice(task2))
    worker.refresh_from_db()
    assert worker.status == Worker.STOPPED
    client.force_login(personas.organiser)
    trap = task.example.trap
    client.post(f"/campaigns/{campaign.pk}/traps/{trap.pk}/contest/", {"contested": "1"})
    worker.refresh_from_db()
    # Trust is recomputed (1 of 1 counting trap answers right) but a screened-out worker
    # comes back only when the organiser says so; the page says they could.
    assert (worker.status, worker.trust) == (Worker.STOPPED, 1.0)
    html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "trust is above the threshold now" in html
    client.post(f"/campaigns/{campaign.pk}/workers/{worker.pk}/reinstate/")
    worker.refresh_from_db()
    assert (worker.status, worker.trust) == (Worker.ACTIVE, 1.0)


def test_the_answers_csv_has_the_documented_columns_and_one_row_per_answer(
    client, personas, campaign_with_answers
):
    client.force_login(personas.organiser)
    response = client.get(f"/campaigns/{campaign_with_answers.pk}/answers.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == ANSWERS_CSV_COLUMNS
    assert len(rows) == sum(w.answers.count() for w in campaign_with_answers.workers.all())
    bad_rows = [r for r in rows if r["platform_id"] == "bad-worker"]
    assert bad_rows and all(r["excluded"] == "1" and r["accepted"] == "0" for r in bad_rows)
    for row in rows:
        assert row["shown_as_a"] in ("a", "b") and len(row["list_a"].split()) == 5
        flipped = {"a_better": "b_better", "b_better": "a_better"}
        expected = (
            row["choice"] if row["shown_as_a"] == "a" else flipped.get(row["choice"], row["choice"])
        )
        assert row["outcome"] == expected
    documented = (Path(__file__).resolve().parents[2] / "docs/crowd-answers-csv.md").read_text()
    for column in ANSWERS_CSV_COLUMNS:
        assert f"`{column}`" in documented


def test_an_organiser_creates_a_campaign_adds_system_lists_and_imports_examples(
    client, personas, crowd_collection
):
    client.force_login(personas.organiser)
    response = client.post(
        f"/collections/{crowd_collection.pk}/campaigns/new/",
        {"name": "Pilot", "list_length": 5, "answers_per_example": 3, "max_answers_per_worker": 100,
         "quiz_length": 0, "trap_rate": 0.1, "trust_threshold": 0.7, "min_trap_answers": 3,
         "completion_code": "DONE1", "screen_out_code": "OUT1", "is_open": "on",
         "instructions": "Listen.", "consent_text": "Consent."},
    )  # fmt: skip
    campaign = PreferenceCampaign.objects.get(name="Pilot")
    assert response.url == f"/campaigns/{campaign.pk}/"
    s1, s2 = crowd_collection.systems.order_by("name")[:2]
    client.post(
        f"/campaigns/{campaign.pk}/examples/from-systems/", {"system_a": s1.pk, "system_b": s2.pk}
    )
    assert campaign.examples.count() == 4
    text = "query,list_a,list_b,accepted_answers,explanation\nq1,d01 d02 d03 d04 d05,d20 d21 d22 d23 d24,a_better,Obvious.\n"
    client.post(
        f"/campaigns/{campaign.pk}/examples/from-csv/",
        {"file": SimpleUploadedFile("e.csv", text.encode())},
    )
    assert campaign.examples.count() == 5
    assert campaign.examples.filter(trap__accepted_answers=["a_better"]).count() == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"query,list_a,list_b\nq1,d01 d02\rd03 d04 d05,d20 d21 d22 d23 d24\n",
            "line 2: a line break (CR) inside a field that is not in double quotes",
        ),
        (
            b"query,list_a,list_b\nq1," + b"d" * (128 * 1024 + 1) + b",d20\n",
            "line 2: a field is longer than 131,072 characters",
        ),
        (b"query,list_a,list_b\nq1,\xff\xfe,d20\n", "line 2: not UTF-8 text"),
        (b"query,list_a,list_b\nq1,d\x0001,d20\n", "line 2: list_a: unknown clip 'd\\x0001'"),
        (b'query,list_a,list_b\nq1,"d01,d20\n', "line 2: malformed CSV (unexpected end of data)"),
    ],
)
def test_a_broken_examples_csv_upload_is_a_clear_message_not_a_500(
    client, personas, crowd_collection, content, message
):
    campaign = make_campaign(crowd_collection, traps=0)
    before = campaign.examples.count()
    client.force_login(personas.organiser)
    response = client.post(
        f"/campaigns/{campaign.pk}/examples/from-csv/",
        {"file": SimpleUploadedFile("e.csv", content)},
        follow=True,
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert len(shown) == 1 and shown[0].startswith("Nothing imported: "), shown
    assert message in shown[0]
    assert campaign.examples.count() == before
