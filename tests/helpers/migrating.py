"""Helpers for the tests of data migrations: move the test database's schema and back."""

from __future__ import annotations

import atexit
import functools
from types import SimpleNamespace

import psycopg
import pytest
from django.contrib.auth.management import create_permissions
from django.db import connection, connections
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
    backwards = bool(plan) and all(backwards for _, backwards in plan)
    if backwards and _FROM_NOTHING[0]:
        _FROM_NOTHING[0] = False
        return _built_from_nothing(targets, {(m.app_label, m.name) for m, _ in plan})
    if backwards:
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


_FROM_NOTHING = [False]
"""Whether the next backward :func:`migrate` may build the database anew instead (a
:func:`migration_test`'s first one, when the database holds nothing of the test's yet)."""


def _built_from_nothing(targets, unapplied: set) -> object:
    """The database at ``targets`` built forward from an empty one, as an installation of
    that time was: the migrations applied are exactly those a backward walk would keep
    (every applied one but ``unapplied``), so the schema and the historical apps are the
    same. Walking back through every later migration re-renders the models of each (issue
    30's move alone has hundreds of state steps): 60–100 s a test on a busy machine,
    against a few seconds forward to an old point."""
    executor = MigrationExecutor(connection)
    kept = set(executor.loader.applied_migrations) - unapplied
    graph = executor.loader.graph
    leaves = [n for n in kept if not any(c.key in kept for c in graph.node_map[n].children)]
    _emptied()
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)
    # what ``manage.py migrate`` then does: the content types and permissions of the
    # models of that time, under the app labels of that time (judging's before issue 30),
    # so that an admin log entry or a permission can name them
    then = executor.loader.project_state(leaves).apps
    for app in then.get_app_configs():
        create_permissions(SimpleNamespace(label=app.label, models_module=True), verbosity=0,
                           apps=then)  # fmt: skip
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _emptied() -> None:
    """Every table of the test database dropped (its schema on PostgreSQL)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            return
        cursor.execute("PRAGMA foreign_keys = OFF")
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"DROP TABLE {connection.ops.quote_name(table)}")
        cursor.execute("PRAGMA foreign_keys = ON")


def _admin() -> psycopg.Connection:
    params = connection.get_connection_params()
    return psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True)


_SNAPSHOT: list[str] = []
"""The name of a copy of the test database at the latest migrations, made by the first
:func:`migration_test` (PostgreSQL's ``CREATE DATABASE … TEMPLATE``) and dropped when the
run ends: each test's database is put back by copying it (about a second) instead of
migrating forward through every later migration again."""


def _snapshot() -> str | None:
    if connection.vendor != "postgresql":
        return None
    if not _SNAPSHOT:
        name = connection.settings_dict["NAME"]
        copy = f"{name}_latest"
        connections.close_all()
        try:
            with _admin() as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{copy}"')
                admin.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')
        except psycopg.Error:  # another session on the database: migrate forward instead
            return None
        _SNAPSHOT.append(copy)
        atexit.register(_drop, copy)
    return _SNAPSHOT[0]


def _restore(copy: str) -> None:
    name = connection.settings_dict["NAME"]
    connections.close_all()
    with _admin() as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{copy}"')


def _drop(copy: str) -> None:
    try:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
    except psycopg.Error:  # the throwaway server may be gone already
        pass


def latest() -> list[tuple[str, str]]:
    """Every app's latest migration."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate_to_latest() -> None:
    """Every app to its latest migration, as the other tests expect the schema."""
    migrate(latest())


def migration_test_on_both(test):
    """A data migration's test in a database of its own (``transaction=True``), the
    database back as it was, at the latest migrations, afterwards, whatever failed; in
    both passes of ``make test``, SQLite's too: for a migration that renames columns,
    which SQLite does by rebuilding the table.

    Its first backward :func:`migrate` builds the database forward from nothing
    (:func:`_built_from_nothing`), and on PostgreSQL the database is put back from a
    copy made before (:func:`_snapshot`): walking back and forth through every later
    migration was most of the PostgreSQL pass's time (12 tests, 24 of its 52 minutes on
    a busy machine; the test of evaluation 0004 went from 96 to 5 s)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        copy = _snapshot()
        _FROM_NOTHING[:] = [True]
        try:
            return test(*args, **kwargs)
        finally:
            _FROM_NOTHING[:] = [False]
            if copy is None:
                migrate_to_latest()
            else:
                _restore(copy)

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
