"""Account names stored before issue 28 are renamed to their canonical form by judging 0030,
except lookalikes of each other, which are left (each logs in with its exact name) and
logged; no account is locked out."""

import logging

from django.contrib.auth.models import User
from django.test import Client

from tests.helpers.migrating import migrate, migration_test
from tests.helpers.personas import PASSWORD

BEFORE = [("judging", "0029_practice_tasks")]
AFTER = [("judging", "0030_canonical_usernames")]


@migration_test
def test_names_take_their_canonical_form_and_lookalikes_are_left_and_logged(caplog):
    apps = migrate(BEFORE)
    users = apps.get_model("auth", "User").objects
    for name in ["Alice", "ｂｏｂ", "dave", "Carol", "carol", "ÉVE", "x\u0130"]:
        users.create(username=name)

    with caplog.at_level(logging.WARNING, logger="judging.migrations"):
        migrate(AFTER)
    migrate_back = sorted(User.objects.values_list("username", flat=True))
    # "x\u0130" (x, dotted capital I) folds to x, i, combining dot: no valid name, kept.
    assert migrate_back == sorted(["alice", "bob", "dave", "Carol", "carol", "éve", "x\u0130"])
    warnings = " ".join(record.getMessage() for record in caplog.records)
    assert "'Carol'" in warnings and "'carol'" in warnings and "rename all but one" in warnings
    assert "'x\u0130'" in warnings and "alice" not in warnings

    for name, typed in [
        ("alice", "Alice"),
        ("bob", "ｂｏｂ"),
        ("Carol", "Carol"),
        ("carol", "carol"),
    ]:
        user = User.objects.get(username=name)
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
        client = Client()
        assert client.post("/login/", {"username": typed, "password": PASSWORD}).status_code == 302
        assert int(client.session["_auth_user_id"]) == user.pk  # as before: not locked out
