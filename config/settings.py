"""Earshot settings, all from the environment (see the table in README.md).

Defaults give the embedded single-machine setup of ``make run``: an SQLite file and
the embedded Redis on a unix socket, both under ``var/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    email_settings,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_url,
    redis_cache_location,
    secret_key,
)
from config.security_headers import DEFAULT_POLICY

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("EARSHOT_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = secret_key(debug=DEBUG, var_dir=VAR_DIR)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is required when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "config.devserver",  # runserver handing requests their connection (listening.audio_delivery)
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "common",
    "people",
    "work",
    "catalog",
    "listening",
    "ingest",
    "relevance",
    "crowd",
    "pastanswers",
    "pairwise",
    "demo",
    "judging",  # migration history only (judging/__init__.py)
    "evaluation",
]

# The security headers come first, so that every response passes them on its way out: the
# early 400 of a control character and the static files too (issue 28, item 5).
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.security_headers.ContentSecurityPolicy",
    "config.request_checks.RefuseControlCharacters",  # %00 in a URL: one 400 on both databases
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.not_found.StyledNotFoundUnderDebug",  # DEBUG (make run): no technical 404 page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_DEFAULT_DATABASE_URL = f"sqlite:///{VAR_DIR / 'earshot.sqlite3'}"
DATABASE_URL = env_url(
    "DATABASE_URL", _DEFAULT_DATABASE_URL, schemes=("sqlite", "postgres", "postgresql")
)
# Health checks: a connection broken by a database restart is replaced before a request
# uses it, instead of failing that request.
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, for the test database too: the real Celery worker of the
    # tests is another process and must see what a test wrote.
    # Named per process, so that two test runs in one checkout never share a file.
    # In memory-backed /dev/shm where there is one (no disk flush per commit: the suite's
    # many transactional tests ran at disk speed), else in var/; EARSHOT_TEST_DB_DIR decides.
    _test_db_dir = Path(
        env_str("EARSHOT_TEST_DB_DIR", "/dev/shm" if os.access("/dev/shm", os.W_OK) else "")
        or VAR_DIR
    )
    DATABASES["default"]["TEST"] = {
        "NAME": str(_test_db_dir / f"test-earshot-{os.getpid()}.sqlite3")
    }
    # SQLite as a real embedded database: write-ahead logging, so readers never wait for a
    # writer (a long import does not hold up the pages, polls and the crowd's reads), and
    # a writer waits up to EARSHOT_SQLITE_BUSY_SECONDS for another instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": env_int("EARSHOT_SQLITE_BUSY_SECONDS", 60, minimum=1),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The embedded Redis of ``make run`` listens on this unix socket (scripts/embedded_redis.py).
REDIS_SOCKET = VAR_DIR / "redis" / "redis.sock"
REDIS_URL = env_url(
    "REDIS_URL", f"redis+socket://{REDIS_SOCKET}", schemes=("redis", "rediss", "redis+socket")
)
# The cache is the same Redis (login throttling counts there, shared by every process).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis_cache_location(REDIS_URL),
        "KEY_PREFIX": "earshot",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
    }
}
CELERY_BROKER_URL = REDIS_URL
# No result backend: every task is fire and forget, so sending one never waits on Redis
# for a result channel (that made a command hang ~45 s when the broker was down).
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's fixup closes database connections only every this many tasks (x2); the
# worker checks them like requests do instead (config/celery.py).
CELERY_DB_REUSE_MAX = 1000
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a task must never hang a request when the broker is down: two tries of at most
# 0.5 s to connect, 0.2 s apart, so a send gives up within ~1.5 s (the senders log it in
# one line and the one sweep sends again: work/sweep.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0.2,
    "interval_step": 0,
    "interval_max": 0.2,
}
# One Redis list per priority 0–9 (0 served first): a piece of work is sent with its owner's
# count of other active work as priority, so one organiser's burst waits behind everyone
# else's first piece (work/fairness.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 0.5,
    "socket_timeout": 5,
    "priority_steps": list(range(10)),
}
# Judging's "… changed" hand-offs are coalesced at the sender: while a message for the
# same task and target is queued and its task has not started, a change sends nothing
# more (a marker in the cache, which is this Redis, with this expiry: a lost message
# holds later changes back at most this long). 0 sends one message per change.
EARSHOT_HANDOFF_COALESCE_SECONDS = env_int("EARSHOT_HANDOFF_COALESCE_SECONDS", 10, minimum=0)
# What dead brokers and workers left undone is sent again on this schedule; `make run`'s
# worker runs it (-B); in production run one `celery -A config beat` (or one worker -B).
EARSHOT_SWEEP_SECONDS = env_int("EARSHOT_SWEEP_SECONDS", 60, minimum=1)
# A pending recompute sent longer ago than this may have lost its message: sent again.
EARSHOT_RESEND_AFTER = env_int("EARSHOT_RESEND_AFTER_SECONDS", 60, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "work-sweep": {"task": "work.sweep", "schedule": EARSHOT_SWEEP_SECONDS},
    # deleted things past EARSHOT_TRASH_DAYS are forgotten (catalog.services.trash)
    "trash-sweep": {"task": "judging.trash_sweep", "schedule": 3600.0},
}
# Background work (work/): two queues, so that one organiser's long work never holds
# another's short work. Short work (hand-offs, small uploads, recomputes within the
# interactive budget) goes to "interactive"; big uploads and big recomputes to "heavy".
# Run one worker per queue (`make run` does; README "Production").
CELERY_TASK_DEFAULT_QUEUE = "interactive"
# Every task is stopped cleanly after the soft limit (the work is failed with a message
# and "Try again") and killed at the hard one (then it counts as a worker that died).
EARSHOT_TASK_SOFT_TIME_LIMIT = env_int("EARSHOT_TASK_SOFT_TIME_LIMIT_SECONDS", 1800, minimum=1)
CELERY_TASK_SOFT_TIME_LIMIT = EARSHOT_TASK_SOFT_TIME_LIMIT
CELERY_TASK_TIME_LIMIT = EARSHOT_TASK_SOFT_TIME_LIMIT + 60
# Limits before work (work/limits.py): what a computation would cost is stated before it
# starts, and work over a limit is refused with a message on the results page.
# Pairs of systems the pairwise tests and the significance page hold (316 systems).
EARSHOT_LIMIT_PAIRS = env_int("EARSHOT_LIMIT_PAIRS", 50_000, minimum=1)
# Resampled differences of the significance tests: pairs × queries × resamples × measures.
EARSHOT_LIMIT_RESAMPLED = env_int("EARSHOT_LIMIT_RESAMPLED", 10**12, minimum=1)
# (query, clip) pairs in a low-cost estimate's pool.
EARSHOT_LIMIT_POOL = env_int("EARSHOT_LIMIT_POOL", 500_000, minimum=1)
# Work costing more than this (in the same units) goes to the heavy queue: ~1-2 s of a core.
EARSHOT_INTERACTIVE_MAX_COST = env_int("EARSHOT_INTERACTIVE_MAX_COST", 10**10, minimum=0)
# Uploads bigger than this (all files together) go to the heavy queue.
EARSHOT_INTERACTIVE_UPLOAD_MAX_BYTES = (
    env_int("EARSHOT_INTERACTIVE_UPLOAD_MAX_KB", 1024, minimum=0) * 1024
)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
CSRF_FAILURE_VIEW = "common.error_pages.csrf_failure"
# Every password form finds its account by the canonical form of the name typed
# (common/usernames.py): one account, and one throttle count, whatever its spelling.
AUTHENTICATION_BACKENDS = ["people.auth_backend.CanonicalUsernameBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing root
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.StaticFiles"  # whitenoise's, ES module imports hashed too
    },
}
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("FILE_UPLOAD_MAX_MEMORY_SIZE", 10 * 1024 * 1024, minimum=1)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "common.json_body.JSONRenderer",  # a lone surrogate quoted back is escaped, not a 500
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "common.json_body.JSONParser",  # bad JSON, however deeply nested, is a 400
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "token_address": env_str("EARSHOT_TOKEN_RATE_IP", "10/minute"),
        "token_account": env_str("EARSHOT_TOKEN_RATE_USER", "5/minute"),
        "login_address": env_str("EARSHOT_LOGIN_RATE_IP", "20/minute"),
        "login_account": env_str("EARSHOT_LOGIN_RATE_USER", "5/minute"),
    },
    # The client's address: 0 proxies = the socket's own (X-Forwarded-For is ignored: a
    # client could write anything there); behind N proxies, the N-th from the right.
    # Never None: DRF would then trust the header as sent.
    "NUM_PROXIES": env_int("EARSHOT_NUM_PROXIES", 0, minimum=0),
}
# An IPv6 client is counted as its network of this many bits (a /64 is one household or
# machine): login throttles, the crowd's new ids per address (common/client_address.py).
EARSHOT_IPV6_PREFIX = env_int("EARSHOT_IPV6_PREFIX", 64, minimum=1)
if EARSHOT_IPV6_PREFIX > 128:
    raise ImproperlyConfigured(f"EARSHOT_IPV6_PREFIX={EARSHOT_IPV6_PREFIX} must be at most 128")
SPECTACULAR_SETTINGS = {
    # Swagger UI from the installed sidecar package, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TITLE": "Earshot API",
    "DESCRIPTION": "Collections, judgments, campaigns, answers, mappings and leaderboards.",
    "VERSION": "0.1.0",
    # An answer's choice (as shown) and outcome (about the stored lists) share one set.
    "ENUM_NAME_OVERRIDES": {
        "PreferenceAnswerEnum": "crowd.models.CHOICES",
        "JudgmentSourceStatusEnum": "catalog.models.JudgmentSource.STATUSES",
        # jobs and recomputes name their states alike (issue 30): one enum each
        "JobStateEnum": "work.models.Job.STATES",
        "RecomputeStateEnum": "evaluation.models.Recompute.STATES",
    },
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
# E-mail (invitation links): EMAIL_URL (config.env.email_settings); with DEBUG and no
# EMAIL_URL, messages are printed to the console (make run's log); without either, none is
# sent and the pages say so (the link is always shown to copy).
_EMAIL_URL = env_str("EMAIL_URL", "console://" if DEBUG else "")
globals().update(email_settings(_EMAIL_URL) if _EMAIL_URL else {})
EARSHOT_EMAIL_ENABLED = bool(_EMAIL_URL)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Earshot <earshot@localhost>")
# Content-Security-Policy (config/security_headers.py); "" sends none.
EARSHOT_CSP = env_str("EARSHOT_CSP", DEFAULT_POLICY)
# HSTS (sent on HTTPS responses only): a year when DEBUG is off, none with DEBUG.
SECURE_HSTS_SECONDS = env_int("EARSHOT_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("EARSHOT_HSTS_INCLUDE_SUBDOMAINS", False)
# Behind a reverse proxy (EARSHOT_NUM_PROXIES > 0) that terminates HTTPS, its
# X-Forwarded-Proto says whether the request was secure (for HSTS and secure cookies).
if REST_FRAMEWORK["NUM_PROXIES"] > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Invitation links for new assessors and organisers work once, for this many days.
EARSHOT_INVITATION_DAYS = env_int("EARSHOT_INVITATION_DAYS", 7, minimum=1)
# New crowd worker ids one client address may start in a campaign per hour (issue 22).
EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR = env_int(
    "EARSHOT_CROWD_NEW_IDS_PER_ADDRESS_HOUR", 30, minimum=1
)

# Results (evaluation app): a recompute task starts this many seconds after the first
# request of a burst, so that the rest of the burst joins it (evaluation/services/recompute.py).
EARSHOT_RECOMPUTE_DELAY = env_int("EARSHOT_RECOMPUTE_DELAY_MS", 1000, minimum=0) / 1000
# Debouncing: two computations of one target start at least this many seconds apart, so a
# steady stream of answers costs one computation per interval, not one after another.
EARSHOT_RECOMPUTE_MIN_INTERVAL = (
    env_int("EARSHOT_RECOMPUTE_MIN_INTERVAL_MS", 10_000, minimum=0) / 1000
)
# The Celery worker's niceness (added at its start, 0 leaves it): recomputes and uploads
# yield the cores to the web workers, so a person's request does not wait behind them.
EARSHOT_WORKER_NICENESS = env_int("EARSHOT_WORKER_NICENESS", 10, minimum=0)

# Uploads from the browser and the API (ingest/services/uploads.py): where the files
# wait for their background job (the web and the Celery worker must both reach it), and
# the limits each upload page states. A bigger request is refused with 413 before it is
# read; a reverse proxy in front should allow the same size (nginx client_max_body_size).
EARSHOT_UPLOAD_ROOT = Path(env_str("EARSHOT_UPLOAD_ROOT", str(VAR_DIR / "uploads")))
EARSHOT_UPLOAD_MAX_BYTES = env_int("EARSHOT_UPLOAD_MAX_MB", 1024, minimum=1) * 1024 * 1024
EARSHOT_UPLOAD_TEXT_MAX_BYTES = env_int("EARSHOT_UPLOAD_TEXT_MAX_MB", 200, minimum=1) * 1024 * 1024
EARSHOT_UPLOAD_MAX_FILES = env_int("EARSHOT_UPLOAD_MAX_FILES", 5000, minimum=1)
EARSHOT_ZIP_MAX_MEMBERS = env_int("EARSHOT_ZIP_MAX_MEMBERS", 20_000, minimum=1)
EARSHOT_ZIP_MAX_BYTES = env_int("EARSHOT_ZIP_MAX_UNPACKED_MB", 4096, minimum=1) * 1024 * 1024
# Listening evidence (listening/services/audio_served.py): a clip counts as played once this
# share of its first EARSHOT_LISTEN_WINDOW_SECONDS was sent; a crowd answer needs this many
# seconds per clip it relies on since the task's first audio (one clip at a time).
EARSHOT_LISTEN_WINDOW_SECONDS = env_int("EARSHOT_LISTEN_WINDOW_SECONDS", 30, minimum=1)
EARSHOT_LISTEN_COVERAGE = env_int("EARSHOT_LISTEN_COVERAGE_PERCENT", 50, minimum=0) / 100
EARSHOT_LISTEN_SECONDS_PER_CLIP = env_int("EARSHOT_LISTEN_SECONDS_PER_CLIP", 5, minimum=0)
# Delete with undo (catalog/services/trash.py): how long deleted things stay restorable,
# and the most rows one deletion may keep (a larger one is refused with a message).
EARSHOT_TRASH_DAYS = env_int("EARSHOT_TRASH_DAYS", 30, minimum=1)
EARSHOT_TRASH_MAX_ROWS = env_int("EARSHOT_TRASH_MAX_ROWS", 300_000, minimum=1)
# One clip: big enough for a few minutes of CD-quality WAV, the study's 30-second clips many times over.
EARSHOT_CLIP_MAX_BYTES = env_int("EARSHOT_CLIP_MAX_MB", 50, minimum=1) * 1024 * 1024
EARSHOT_CLIP_MAX_SECONDS = env_int("EARSHOT_CLIP_MAX_SECONDS", 600, minimum=1)
# Read from an audio file's header before it is decoded (listening/loudness.py): what
# decoding and measuring may cost is bounded by seconds × rate × channels.
EARSHOT_CLIP_MAX_CHANNELS = env_int("EARSHOT_CLIP_MAX_CHANNELS", 8, minimum=1)
EARSHOT_CLIP_MAX_RATE = env_int("EARSHOT_CLIP_MAX_RATE", 192_000, minimum=1000)
DATA_UPLOAD_MAX_NUMBER_FILES = EARSHOT_UPLOAD_MAX_FILES  # Django refuses more files in one request
