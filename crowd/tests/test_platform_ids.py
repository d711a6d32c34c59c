"""Platform ids are ids (issue 29, item 6): a task link's ids must have their platform's
format (:mod:`crowd.platform_ids`), or the worker gets a page that says so and nothing is
recorded.

Issue 29 found ``PROLIFIC_PID=X Y`` (or ``X,Y``) accepted, and the approvals export's
bulk-approve and bulk-bonus lines carrying both ids, recommended "approve" (the exports'
side is in ``crowd/tests/test_crowd_approvals.py``). The formats: Prolific's ids are 24
hexadecimal characters; Mechanical Turk's worker ids ``^A[A-Z0-9]+$`` and assignment and
HIT ids ``^[A-Z0-9]+$``, at most 64 (the Mechanical Turk API's patterns); any other id
letters, digits, ``.``, ``_`` and ``-``, from a letter or digit, at most 64.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from crowd.models import Worker
from tests.helpers.crowd_fixtures import make_campaign

pytestmark = pytest.mark.django_db

PID = "5f1e2d3c4b5a69788796a5b4"
SANDBOX = "https://workersandbox.mturk.com"


@pytest.fixture
def link(crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    return f"/t/{campaign.token}/?"


def arrive(client, link, **ids):
    return client.get(link + urlencode(ids))


@pytest.mark.parametrize(
    "pid",
    [
        "X Y", "X,Y", f"{PID} {PID}", f"{PID},{PID}", f"{PID};{PID}", PID[:-1], PID + "0",
        "g" * 24, "=" + PID[1:], "-" + PID[1:], "\u0665" * 24, PID[:23] + "\u202e",
    ],
)  # fmt: skip
def test_a_prolific_id_that_is_not_24_hexadecimal_characters_is_refused(client, link, pid):
    response = arrive(client, link, PROLIFIC_PID=pid, STUDY_ID="s1", SESSION_ID="x1")
    html = response.content.decode()
    assert response.status_code == 400
    assert "The id in this study link is not valid" in html
    assert "a Prolific id is 24 characters, each a digit or a letter from a to f" in html
    assert not Worker.objects.exists() and not response.cookies


def test_a_prolific_id_is_kept_in_small_letters_so_one_participant_is_one_worker(client, link):
    assert arrive(client, link, PROLIFIC_PID=PID.upper()).status_code == 302
    assert Worker.objects.get().platform_id == PID
    from django.test import Client

    same_person = arrive(Client(), link, PROLIFIC_PID=PID)  # another browser, same person
    assert same_person.status_code == 409 and Worker.objects.count() == 1


@pytest.mark.parametrize(
    ("study", "session"), [("s 1", "x1"), ("s1", "x,1"), ("s1", "@x"), ("s1", "x" * 65)]
)
def test_prolifics_study_and_session_ids_have_the_strict_format(client, link, study, session):
    response = arrive(client, link, PROLIFIC_PID=PID, STUDY_ID=study, SESSION_ID=session)
    assert response.status_code == 400 and not Worker.objects.exists()
    assert "letters, digits, dots, hyphens and underscores" in response.content.decode()


@pytest.mark.parametrize(
    ("ids", "accepted"),
    [
        ({"workerId": "A1B2C3D4E5F6G7", "assignmentId": "3ASSIGNMENT9", "hitId": "3HIT7"}, True),
        ({"workerId": "A" + "B" * 63, "assignmentId": "9" * 64}, True),
        ({"workerId": "a1b2c3", "assignmentId": "3ASSIGNMENT9"}, False),  # small letters
        ({"workerId": "W1B2C3", "assignmentId": "3ASSIGNMENT9"}, False),  # not from A
        ({"workerId": "A1 B2", "assignmentId": "3ASSIGNMENT9"}, False),
        ({"workerId": "A1,A2", "assignmentId": "3ASSIGNMENT9"}, False),
        ({"workerId": "A" + "B" * 64, "assignmentId": "3ASSIGNMENT9"}, False),  # 65
        ({"workerId": "A1B2C3", "assignmentId": "ASG-1"}, False),
        ({"workerId": "A1B2C3", "assignmentId": "3ASSIGNMENT9", "hitId": "H 1"}, False),
    ],
)
def test_mechanical_turk_ids_have_the_apis_formats(client, link, ids, accepted):
    response = arrive(client, link, turkSubmitTo=SANDBOX, **ids)
    assert response.status_code == (302 if accepted else 400)
    assert Worker.objects.exists() == accepted


@pytest.mark.parametrize(
    ("worker", "accepted"),
    [
        ("lab-7", True), ("P_0042.b", True), ("9" * 64, True),
        ("a b", False), ("a,b", False), ("a;b", False), ("-a", False), ("=1+1", False),
        ("@SUM(A1)", False), ("'a", False), ('"a"', False), ("é", False), ("9" * 65, False),
    ],
)  # fmt: skip
def test_any_other_id_is_letters_digits_dots_hyphens_and_underscores(
    client, link, worker, accepted
):
    response = arrive(client, link, worker=worker)
    assert response.status_code == (302 if accepted else 400)
    assert Worker.objects.filter(platform_id=worker).exists() == accepted
    if not accepted:
        assert "Your participant id in this link is not valid" in response.content.decode()


def test_a_link_without_an_id_still_says_the_id_is_missing(client, link):
    response = client.get(link + "STUDY_ID=s1")
    assert response.status_code == 400
    assert "This study link is missing your id" in response.content.decode()
