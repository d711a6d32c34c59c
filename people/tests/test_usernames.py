"""One identity per account name (issue 28, item 1), its attacks replayed.

Before: the per-account throttle counted the name as typed (lower-cased) while the login
read its NFKC form, so rotating spellings (``ｂｏｂ``, ``𝐛𝐨𝐛``) gave 40 wrong guesses for
one account in 19 s, all answered 200 (limit: 5 a minute); the right password typed as
``𝐜𝐚𝐫𝐨𝐥`` logged in while ``carol`` was locked; the admin's login throttled none of 7
spellings; and an organiser could create assessors named ``ａｓｓｅｓｓｏｒ`` and
``ｏｒｇａｎｉｓｅｒ``, listed beside the real accounts. The counts are in the shared Redis
cache (``redis_cache``), as in ``make run``.
"""

from __future__ import annotations

import doctest
import io

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

import common.usernames
from common.roles import ASSESSOR, ORGANISER
from common.throttles import account_key
from common.usernames import user_named, username_canonical
from people.services import person_create
from tests.helpers.personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def _shifted(text: str, upper: int, lower: int) -> str:
    return "".join(
        chr(upper + ord(c) - 65) if "A" <= c <= "Z" else chr(lower + ord(c) - 97) if "a" <= c <= "z"
        else c for c in text
    )  # fmt: skip


def bold(text: str) -> str:
    """``text`` in mathematical bold (U+1D400 𝐀, U+1D41A 𝐚), which NFKC reads as letters."""
    return _shifted(text, 0x1D400, 0x1D41A)


def fullwidth(text: str) -> str:
    """``text`` in fullwidth forms (U+FF21 Ａ, U+FF41 ａ), which NFKC reads as letters."""
    return _shifted(text, 0xFF21, 0xFF41)


def spellings(name: str) -> list[str]:
    """Seven spellings of one lower-case ASCII name, as the issue's attack rotated them."""
    return [name, name.upper(), name.title(), fullwidth(name), bold(name),
            fullwidth(name.upper()), f" {bold(name).upper()} "]  # fmt: skip


def test_the_spellings_are_one_name_and_the_module_examples_hold():
    assert {username_canonical(s) for s in spellings("carol")} == {"carol"}
    assert len(set(spellings("carol"))) == 7
    assert doctest.testmod(common.usernames).failed == 0


def test_rotating_spellings_at_the_login_page_meets_the_one_account_count(
    client, redis_cache, personas
):
    carol = make_user("carol", ORGANISER)
    names = spellings(carol.username) * 6  # 42 guesses, each from its own address
    statuses = [
        client.post("/login/", {"username": name, "password": "wrong"},
                    REMOTE_ADDR=f"10.28.1.{n}").status_code
        for n, name in enumerate(names)
    ]  # fmt: skip
    assert statuses == [200] * 5 + [429] * 37  # EARSHOT_LOGIN_RATE_USER: 5 a minute
    # the right password, typed in bold, is not even checked while carol is locked
    right = client.post(
        "/login/", {"username": bold("carol"), "password": PASSWORD}, REMOTE_ADDR="10.28.1.99"
    )
    assert right.status_code == 429 and "_auth_user_id" not in client.session


def test_the_admin_login_counts_every_spelling_as_one_account(client, redis_cache, personas):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    statuses = [
        client.post("/admin/login/", {"username": name, "password": "wrong"},
                    REMOTE_ADDR=f"10.28.2.{n}").status_code
        for n, name in enumerate(spellings(root.username))
    ]  # fmt: skip
    assert statuses == [200] * 5 + [429] * 2


def test_rotating_spellings_at_the_token_endpoint_meets_the_one_account_count(
    redis_cache, personas
):
    api = APIClient()
    statuses = [
        api.post("/api/token/", {"username": name, "password": "wrong"},
                 REMOTE_ADDR=f"10.28.3.{n}").status_code
        for n, name in enumerate(spellings(personas.organiser.username))
    ]  # fmt: skip
    assert statuses == [400] * 5 + [429] * 2  # EARSHOT_TOKEN_RATE_USER: 5 a minute


def test_any_spelling_of_a_name_with_its_password_logs_in_to_that_account(
    client, redis_cache, personas
):
    for n, name in enumerate([fullwidth("olivia"), "OLIVIA", bold("olivia")]):
        client.logout()
        response = client.post(
            "/login/", {"username": name, "password": PASSWORD}, REMOTE_ADDR=f"10.28.4.{n}"
        )
        assert response.status_code == 302
        assert int(client.session["_auth_user_id"]) == personas.organiser.pk
    token = APIClient().post("/api/token/", {"username": "Olivia", "password": PASSWORD})
    assert token.status_code == 200


@pytest.mark.parametrize("name", ["ａｓｓｅｓｓｏｒ", "ｏｒｇａｎｉｓｅｒ", "ADA", "𝐚𝐝𝐚"])
def test_an_organiser_cannot_create_a_lookalike_of_an_existing_account(client, personas, name):
    make_user("assessor", ASSESSOR)
    make_user("organiser", ORGANISER)
    client.force_login(personas.organiser)
    before = User.objects.count()
    page = client.post("/people/", {"username": name, "role": "assessor", "how": "invite"})
    assert page.status_code == 200
    text = page.content.decode()
    canonical = username_canonical(name)
    assert f"reads as &#x27;{canonical}&#x27;, the name of an existing account" in text
    api = APIClient()
    api.force_authenticate(personas.organiser)
    refused = api.post("/api/people/create/", {"username": name, "role": "assessor"})
    assert refused.status_code == 400 and "reads as" in refused.json()["detail"]
    assert User.objects.count() == before


def test_a_new_account_is_stored_under_its_canonical_name(client, personas):
    client.force_login(personas.organiser)
    client.post("/people/", {"username": "Ｂｅａ", "role": "assessor", "how": "invite"})
    assert User.objects.filter(username="bea").exists()
    assert not User.objects.filter(username="Ｂｅａ").exists()
    assert User.objects.create_user("Ｂｅｎ", "ben@example.org", PASSWORD).username == "ben"


def test_two_requests_creating_lookalikes_leave_one_account():
    """The database's unique constraint holds the rule: the second save of ``ＢＯＢ`` after
    ``bob`` is refused before it reaches the table."""
    person_create(created_by=None, username="bob")
    with pytest.raises(ValidationError, match="reads as 'bob'"):
        User.objects.create_user("ＢＯＢ")
    assert list(User.objects.values_list("username", flat=True)) == ["bob"]


def test_the_admin_refuses_a_lookalike_with_a_message_and_stores_the_canonical_form(client):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    make_user("carol", ORGANISER)
    client.force_login(root)
    form = {"username": "ＣＡＲＯＬ", "password1": "", "password2": "", "usable_password": "false"}
    page = client.post("/admin/auth/user/add/", form)
    assert page.status_code == 200 and "reads as &#x27;carol&#x27;" in page.content.decode()
    form["username"] = "Ｄａｎ"
    assert client.post("/admin/auth/user/add/", form).status_code == 302
    assert User.objects.filter(username="dan").exists()


def test_createsuperuser_refuses_a_lookalike_with_its_message(monkeypatch):
    make_user("carol", ORGANISER)
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    with pytest.raises(CommandError, match="reads as 'carol'"):
        call_command("createsuperuser", "--noinput", username="Carol", email="c@x.org",
                     stdout=io.StringIO())  # fmt: skip
    call_command("createsuperuser", "--noinput", username="Ｒｏｏｔ", email="r@x.org",
                 stdout=io.StringIO())  # fmt: skip
    assert User.objects.get(username="root").is_superuser


def test_sharing_and_invite_find_an_account_by_any_spelling(personas):
    from catalog.services.sharing import collection_share, collection_unshare

    make_user("rita", ORGANISER)
    share = collection_share(collection=personas.collection, username="ＲＩＴＡ", access="read")
    assert share.user.username == "rita"
    assert collection_unshare(collection=personas.collection, username=bold("rita"))
    out = io.StringIO()
    call_command("invite", "ＲＩＴＡ", "--role", "organiser", stdout=out)
    assert "Send rita this link" in out.getvalue() and User.objects.count() == 5


def test_an_old_lookalike_account_left_by_the_migration_logs_in_with_its_exact_name(
    client, redis_cache
):
    """Accounts stored before names were canonical may be lookalikes (``Carol`` and
    ``carol``): the migration leaves them, and each still logs in with its exact name."""
    carol = make_user("carol", ORGANISER)
    old = make_user("someone", ORGANISER)
    User.objects.filter(pk=old.pk).update(username="Carol")  # as the table held it
    old.refresh_from_db()
    assert user_named("Carol") == old and user_named("carol") == carol
    assert user_named("CAROL") == carol  # no exact match: the canonical one
    old.email = "carol2@example.org"
    old.save()  # an edit that keeps the name is no rename (and refuses nothing)
    old.refresh_from_db()
    assert old.username == "Carol"
    response = client.post("/login/", {"username": "Carol", "password": PASSWORD})
    assert response.status_code == 302 and int(client.session["_auth_user_id"]) == old.pk


@given(st.text(max_size=40))
def test_every_spelling_of_a_name_is_one_throttle_count(name):
    """The throttle's key and the stored name agree on every text: the count of a name is
    the count of its canonical form, whichever way it was typed."""
    canonical = username_canonical(name)
    assert account_key(name) == account_key(canonical)
    assert username_canonical(canonical) == canonical
    assert account_key(name.upper()) == account_key(name.lower()) or canonical != name.lower()
