"""Account names stored before issue 28 take their canonical form (judging/usernames.py).

Every account whose name is not in its canonical form (``Alice``, ``ｂｏｂ``) is renamed to
it (``alice``, ``bob``): it logs in as before, with the name it always typed, since the
login finds an account by the canonical form of what is typed. Nothing else refers to a
name (sessions, tokens, judgments and shares hold the account's id).

Two or more accounts whose names have one canonical form (``Carol`` and ``carol``: made
before lookalikes were refused) are left as they are, and so is a name whose canonical
form is no valid name; each is logged as a warning. Each such account still logs in with
its exact name; they share one throttle count. An administrator renames one of them in
``/admin/`` (the admin then stores the canonical form of the new name).
"""

import logging
from collections import defaultdict

from django.conf import settings
from django.db import migrations

from common.usernames import username_canonical, username_problem

logger = logging.getLogger("judging.migrations")


def canonical_usernames(apps, schema_editor):
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    users = apps.get_model(app_label, model_name).objects
    by_canonical = defaultdict(list)
    for pk, name in users.values_list("pk", "username").iterator(chunk_size=2000):
        by_canonical[username_canonical(name)].append((pk, name))
    for canonical, accounts in by_canonical.items():
        if len(accounts) > 1:  # lookalikes (names are unique: one at most is canonical)
            logger.warning(
                "accounts %s have one name in its canonical form, %r: left as they are "
                "(each logs in with its exact name); rename all but one in /admin/",
                ", ".join(f"{name!r} (id {pk})" for pk, name in accounts), canonical,
            )  # fmt: skip
            continue
        pk, name = accounts[0]
        if name == canonical:
            continue
        problem = username_problem(canonical)
        if problem:
            logger.warning(
                "account %r (id %s) keeps its name: its canonical form %r is no name (%s)",
                name, pk, canonical, problem,
            )  # fmt: skip
            continue
        users.filter(pk=pk).update(username=canonical)


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0029_practice_tasks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(canonical_usernames, migrations.RunPython.noop)]
