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
