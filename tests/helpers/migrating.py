"""Helpers for the tests of data migrations: move the test database's schema and back."""

from __future__ import annotations

import functools

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.operations import RunPython, RunSQL

once_on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a data migration's test runs once, in the PostgreSQL pass of make test",
)
"""For the tests of data migrations: they run in ``make test``'s PostgreSQL pass only.

That is the production database, and the migrations are plain ORM code that reads the
same on both. SQLite's schema steps still run whenever a test database is made; what is
skipped on SQLite is moving a filled database back and forth, which rebuilds tables
there (5–14 s a test, about a minute of the SQLite pass in all).
"""


def migrate(targets):
    """Migrate to ``targets`` (``[(app, migration), …]``; ``(app, None)``: none of the
    app's); the historical apps there.

    Backwards, each migration that runs code is unapplied in a call of its own. In one
    call Django gives a backward ``RunPython`` the models as of the migrations before it
    in the *forward* plan of every app, including those of other apps that the same call
    has already unapplied: evaluation 0004's backward step, which reads
    ``PreferenceCampaign``, was handed judging 0009's ``fast_answer_seconds`` once
    evaluation 0012 came to depend on judging 0029 (that reordered the forward plan), and
    failed on PostgreSQL with "column … does not exist". A call of its own sees only
    what is still applied.
    """
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    plan = executor.migration_plan(targets)
    if plan and all(backwards for _, backwards in plan):
        for step in _backward_steps([migration for migration, _ in plan]):
            MigrationExecutor(connection).migrate(targets, plan=[(m, True) for m in step])
    else:
        executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _backward_steps(migrations):
    """``migrations`` (a backward plan, in order) cut so that each one that runs code
    (``RunPython``, ``RunSQL``) is a step of its own; the rest go in runs between them."""
    steps, run = [], []
    for migration in migrations:
        if any(isinstance(op, RunPython | RunSQL) for op in migration.operations):
            steps += [run] if run else []
            steps.append([migration])
            run = []
        else:
            run.append(migration)
    return steps + ([run] if run else [])


def latest() -> list[tuple[str, str]]:
    """Every app's latest migration."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate_to_latest() -> None:
    """Every app to its latest migration, as the other tests expect the schema."""
    migrate(latest())


def migration_test_on_both(test):
    """A data migration's test in a database of its own (``transaction=True``), the schema
    back at the latest migrations afterwards, whatever failed; in both passes of ``make
    test``, SQLite's too: for a migration that renames columns, which SQLite does by
    rebuilding the table."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        try:
            return test(*args, **kwargs)
        finally:
            migrate_to_latest()

    return pytest.mark.django_db(transaction=True)(run)


def migration_test(test):
    """:func:`migration_test_on_both`, in the PostgreSQL pass only (:data:`once_on_postgresql`)."""
    return once_on_postgresql(migration_test_on_both(test))


def crowd_study(apps, **fields):
    """A collection with one query and a preference campaign (``fields`` are its
    settings), made with the historical models ``apps``: (campaign, query)."""
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    collection = apps.get_model("judging", "Collection").objects.create(owner=owner, name="C")
    clip = apps.get_model("judging", "Clip").objects.create(collection=collection, external_id="q")
    query = apps.get_model("judging", "Query").objects.create(collection=collection, clip=clip)
    campaign = apps.get_model("judging", "PreferenceCampaign").objects.create(
        collection=collection, name="Study", completion_code="c", screen_out_code="s", **fields
    )
    return campaign, query
