"""The PostgreSQL pass of ``make test`` really runs on PostgreSQL."""

import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_suite_runs_on_the_database_it_was_asked_for():
    expected = "postgresql" if os.environ.get("EARSHOT_EXPECT_POSTGRES") == "1" else "sqlite"
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        expected = "postgresql"
    assert connection.vendor == expected
