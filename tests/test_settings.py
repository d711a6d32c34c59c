"""Settings come from the environment and fail loudly on bad values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_settings(tmp_path, **env) -> subprocess.CompletedProcess:
    """Import the settings in a fresh interpreter with exactly these variables."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}
    }
    clean.update(EARSHOT_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings", **env)
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'], settings.CELERY_BROKER_URL, settings.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_the_defaults_are_an_sqlite_file_and_the_embedded_redis(tmp_path):
    done = load_settings(tmp_path)
    assert done.returncode == 0, done.stderr
    engine, broker, debug = done.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert broker == f"redis+socket://{tmp_path}/redis/redis.sock"  # where make run starts it
    assert debug == "True"
    assert (tmp_path / "secret_key").exists()  # generated for local use


def test_a_postgresql_url_selects_postgresql(tmp_path):
    done = load_settings(tmp_path, DATABASE_URL="postgresql://u:p@db.example:5432/earshot")
    assert done.stdout.split()[0] == "django.db.backends.postgresql"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DEBUG": "false"}, "SECRET_KEY is required when DEBUG is off"),
        ({"DEBUG": "false", "SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS is required when DEBUG is off"),
        ({"SECRET_KEY": "short"}, "SECRET_KEY must be at least 32 characters"),
        (
            {"DATABASE_URL": "mysql://x/y"},
            "DATABASE_URL='mysql://x/y' is not a URL with one of the schemes",
        ),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL='localhost:6379' is not a URL"),
        (
            {"FILE_UPLOAD_MAX_MEMORY_SIZE": "ten"},
            "FILE_UPLOAD_MAX_MEMORY_SIZE='ten' is not a whole number",
        ),
    ],
)
def test_bad_values_stop_the_start_with_a_message_naming_the_variable(tmp_path, env, message):
    done = load_settings(tmp_path, **env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert message in done.stderr


def test_production_settings_load_with_every_required_value(tmp_path):
    done = load_settings(
        tmp_path,
        DEBUG="false",
        SECRET_KEY="k" * 50,
        ALLOWED_HOSTS="earshot.example.org",
        REDIS_URL="redis://cache:6379/0",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1:] == ["redis://cache:6379/0", "False"]
