"""What every test run shares, in every test folder (the apps' ``tests``, ``tests``,
``evaluation/core/tests``)."""

import pytest
from hypothesis import HealthCheck, settings

# Property tests draw the same cases on every run, so a failure is reproducible and a
# run on a loaded CI machine (two test passes side by side on two cores) cannot fail
# where a quiet one passes: no wall-clock deadline, no "too slow" health check. Each
# test's own @settings (its number of cases) still applies on top of this.
settings.register_profile(
    "earshot",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
settings.load_profile("earshot")

# The helper library's fixtures, for the tests of every app (tests/helpers/); its asserts
# are rewritten like the tests' own, whichever helper imports which first.
pytest.register_assert_rewrite("tests.helpers")
pytest_plugins = [
    "tests.helpers.fixtures",
    "tests.helpers.crowd_fixtures",
    "tests.helpers.uploads",
    "tests.helpers.listening_data",
    "tests.helpers.pages",
    "tests.helpers.sources",
    "tests.helpers.demo",
]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The test database is made from the models as they are (Django's ``TEST["MIGRATE"]
    = False``: a few seconds) instead of by running every migration (about 30 s of each
    pass of ``make test``); :func:`django_db_setup` then records every migration as applied,
    so the data-migration tests (``tests/helpers/migrating.py``) walk the same graph as on a
    migrated database. That the models and the migrations agree is checked by
    ``tests/test_migrations_complete.py``; that the migrations build a database, by the
    data-migration tests, which build theirs from nothing."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        database.setdefault("TEST", {})["MIGRATE"] = False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.recorder import MigrationRecorder

    with django_db_blocker.unblock():
        recorder = MigrationRecorder(connection)
        recorder.ensure_schema()
        applied = set(recorder.applied_migrations())
        recorder.migration_qs.bulk_create(
            recorder.Migration(app=app, name=name)
            for app, name in sorted(MigrationLoader(connection).graph.nodes)
            if (app, name) not in applied
        )
