"""People: assessor accounts and invitation links (people.services, the people pages)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from common.roles import ASSESSOR, ORGANISER, is_assessor, is_organiser
from people.models import Invitation
from people.services import InvitationGone, invitation_accept, invitation_create, person_create
from tests.helpers.personas import make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "listening all day long"


def link_of(page: str) -> str:
    return re.search(
        r'id="invitation-url" type="text" readonly value="http://testserver([^"]+)"', page
    )[1]


def test_an_organiser_creates_an_assessor_with_a_password_who_logs_in_at_once(client, personas):
    client.force_login(personas.organiser)
    client.post("/people/", {"username": "bea", "email": "", "role": ASSESSOR, "how": "password",
                             "password": NEW_PASSWORD})  # fmt: skip
    bea = User.objects.get(username="bea")
    assert is_assessor(bea) and not is_organiser(bea) and bea.check_password(NEW_PASSWORD)


def test_an_invited_assessor_chooses_a_password_once_and_is_logged_in(client, personas):
    client.force_login(personas.organiser)
    page = client.post(
        "/people/", {"username": "bea", "role": ASSESSOR, "how": "invite"}, follow=True
    )
    link = link_of(page.content.decode())
    bea = User.objects.get(username="bea")
    assert not bea.has_usable_password()
    assert page.redirect_chain[-1][0] == "/people/"
    assert link not in client.get("/people/").content.decode()  # the link is shown once only
    client.logout()

    form = client.get(link)
    assert form.status_code == 200 and "Welcome to Earshot, bea" in form.content.decode()
    assert form["Referrer-Policy"] == "same-origin" and "no-cache" in form["Cache-Control"]
    mismatch = client.post(link, {"password1": NEW_PASSWORD, "password2": "other"})
    assert "The two passwords differ." in mismatch.content.decode()
    short = client.post(link, {"password1": "short", "password2": "short"})
    assert "too short" in short.content.decode()
    done = client.post(link, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}, follow=True)
    assert done.redirect_chain[-1][0] == "/" and "Your judging" in done.content.decode()
    bea.refresh_from_db()
    assert bea.check_password(NEW_PASSWORD)

    client.logout()
    again = client.get(link)
    assert again.status_code == 410
    assert "This invitation link no longer works" in again.content.decode()


def test_the_token_is_never_stored_only_its_hash(personas):
    new = invitation_create(
        user=make_user("bea", ASSESSOR, owner=personas.organiser), created_by=personas.organiser
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT token_hash FROM judging_invitation")
        stored = cursor.fetchone()[0]
    assert new.token not in stored and len(stored) == 64 and new.token in new.path


def test_an_expired_or_replaced_link_is_gone_and_an_unknown_one_not_found(client, personas):
    bea = make_user("bea", ASSESSOR, owner=personas.organiser)
    first = invitation_create(user=bea, created_by=personas.organiser)
    second = invitation_create(user=bea, created_by=personas.organiser)
    assert client.get(first.path).status_code == 410  # replaced by the second
    Invitation.objects.filter(pk=second.invitation.pk).update(
        expires_at=second.invitation.created_at - timedelta(seconds=1)
    )
    assert client.get(second.path).status_code == 410
    response = client.get("/invitation/not-a-real-token/")
    assert response.status_code == 404 and "does not work" in response.content.decode()


def test_two_submits_of_one_link_set_the_password_once(personas):
    bea = make_user("bea", ASSESSOR, owner=personas.organiser)
    new = invitation_create(user=bea, created_by=personas.organiser)
    invitation_accept(invitation=new.invitation, password=NEW_PASSWORD)
    with pytest.raises(InvitationGone):
        invitation_accept(invitation=new.invitation, password="another password entirely")
    bea.refresh_from_db()
    assert bea.check_password(NEW_PASSWORD)


def test_an_organiser_cannot_take_over_another_organisers_account_with_a_link(client, personas):
    with pytest.raises(PermissionDenied):
        invitation_create(user=personas.other_organiser, created_by=personas.organiser)
    with pytest.raises(PermissionDenied):
        invitation_create(user=personas.nobody, created_by=personas.organiser)  # no role yet
    client.force_login(personas.organiser)
    response = client.post(f"/people/{personas.other_organiser.pk}/invitation/")
    assert response.status_code == 404 and not Invitation.objects.exists()  # not their person


def test_only_an_administrator_creates_organisers(client, personas):
    with pytest.raises(PermissionDenied):
        person_create(created_by=personas.organiser, username="boss", role=ORGANISER)
    client.force_login(personas.organiser)
    client.post("/people/", {"username": "boss", "role": ORGANISER, "how": "invite"})
    assert not is_organiser(User.objects.filter(username="boss").first() or personas.nobody)
    root = User.objects.create_superuser("root", "root@example.org", "x" * 12)
    boss = person_create(created_by=root, username="boss2", role=ORGANISER)
    assert is_organiser(boss) and invitation_create(user=boss, created_by=root).token


@pytest.mark.parametrize(
    ("username", "message"),
    [("ADA", "The username 'ADA' is taken: it reads as 'ada', the name of an existing account."),
     ("ada", "The username 'ada' is taken: choose another."),
     ("bad name!", "A username holds only letters, digits and @ . + - _ (no spaces)."),
     ("  ", "Choose a username.")],
)  # fmt: skip
def test_usernames_are_unique_whatever_the_case_and_valid(personas, username, message):
    with pytest.raises(ValidationError) as error:
        person_create(created_by=personas.organiser, username=username)
    assert message in " ".join(error.value.messages)


def test_the_people_page_lists_assessors_and_their_state(client, personas):
    invitation_create(
        user=make_user("bea", ASSESSOR, owner=personas.organiser), created_by=personas.organiser
    )
    client.force_login(personas.organiser)
    page = client.get("/people/").content.decode()
    assert "ada" in page and "bea" in page and "until" in page
    assert "oscar" not in page  # organisers are listed for administrators only


def test_the_invite_command_creates_an_organiser_and_prints_a_working_link(client, personas):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command(
        "invite", "fiona", "--role", "organiser", "--base-url", "https://e.org/", stdout=out
    )
    fiona = User.objects.get(username="fiona")
    assert is_organiser(fiona) and "Created the organiser fiona." in out.getvalue()
    path = re.search(r"https://e\.org(/invitation/\S+/)", out.getvalue())[1]
    client.post(path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    fiona.refresh_from_db()
    assert fiona.check_password(NEW_PASSWORD)


def test_an_invitation_is_e_mailed_when_the_account_has_an_address(
    client, personas, mailoutbox, settings
):
    settings.EARSHOT_EMAIL_ENABLED = True
    client.force_login(personas.organiser)
    page = client.post(
        "/people/",
        {"username": "bea", "email": "bea@example.org", "role": ASSESSOR, "how": "invite"},
        follow=True,
    ).content.decode()
    link = link_of(page)
    assert "It was e-mailed to <strong>bea@example.org</strong>" in page
    (message,) = mailoutbox
    assert message.to == ["bea@example.org"] and f"http://testserver{link}" in message.body
    assert "olivia invited you" in message.body

    settings.EARSHOT_EMAIL_ENABLED = False  # no e-mail server: the link is still there to copy
    bea = User.objects.get(username="bea")
    again = client.post(f"/people/{bea.pk}/invitation/", follow=True).content.decode()
    assert "no e-mail was sent" in again and 'data-copy="invitation-url"' in again
    assert len(mailoutbox) == 1
