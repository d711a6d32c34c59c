"""Settings come from the environment and fail loudly on bad values."""

import os
import subprocess
import sys
import time
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


STARTERS, FOLDERS = 8, 100
"""Processes started at once, each asking for the keys of the same empty folders in turn."""


def test_processes_started_at_once_on_an_empty_folder_read_one_whole_key(tmp_path):
    """Issue 28: pass 2 of ``make test`` on a fresh clone read ``var/secret_key`` while pass 1
    was still writing it ("The SECRET_KEY setting must not be empty"). Here eight
    interpreters wait for one signal (the end of their input) and then ask, as
    ``config/settings.py`` does, for the key of each of a hundred empty folders in the same
    order, so that every folder is raced for by processes in step: for each folder all
    must read the same non-empty key, and nothing but the key may be left in it. (With
    the old ``exists()`` then ``write_text`` some folders gave two keys or an empty one.)"""
    folders = [tmp_path / f"var{n}" for n in range(FOLDERS)]
    code = (
        "import sys\nfrom pathlib import Path\nfrom config.env import secret_key\n"
        "sys.stdin.read()\n"
        "for folder in sys.argv[1:]:\n"
        "    print(secret_key(debug=True, var_dir=Path(folder)), flush=True)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", code, *map(str, folders)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(STARTERS)
    ]
    time.sleep(1.0)  # every interpreter has imported and waits for its input to end
    for starter in starters:
        starter.stdin.close()  # go
    read = []
    for starter in starters:
        out, err = starter.stdout.read(), starter.stderr.read()
        assert starter.wait(timeout=60) == 0, err
        read.append(out.split("\n")[:FOLDERS])
    for n, folder in enumerate(folders):
        keys = {keys[n] for keys in read}
        assert len(keys) == 1 and len(keys.pop()) >= 32, f"{folder.name}: {keys}"
        assert [p.name for p in folder.iterdir()] == ["secret_key"]
        assert (folder / "secret_key").stat().st_mode & 0o077 == 0  # its owner's only


def test_a_key_file_left_empty_stops_the_start_with_a_message(tmp_path):
    (tmp_path / "secret_key").write_text("")
    done = load_settings(tmp_path)
    assert done.returncode != 0 and "holds no usable key" in done.stderr
