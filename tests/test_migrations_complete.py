"""The models and their migrations agree: the test database is made from the models
(``conftest.py``), so a change to a model without its migration would otherwise pass every
test and fail only at ``manage.py migrate`` on an installation."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_every_model_change_has_its_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit:  # --check exits 1 when a migration is missing
        assert not exit.code, f"a model changed without its migration:\n{out.getvalue()}"
