"""The Celery app. Tasks are discovered in each installed app's ``tasks.py``."""

import logging
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init
from django.db import close_old_connections
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("earshot")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Database connections in the worker follow Django's rules for requests: kept for
# CONN_MAX_AGE and checked before reuse (CONN_HEALTH_CHECKS), closed when broken or old.
# Celery's Django fixup would otherwise close them before and after every task, so that
# each of the small coalescing tasks a stream of crowd answers sends opened a new
# PostgreSQL connection (a server process started, authenticated and set up, issue 14).
# The fixup closes them only every CELERY_DB_REUSE_MAX tasks (settings.py) instead.
task_prerun.connect(lambda **_: close_old_connections(), weak=False)
task_postrun.connect(lambda **_: close_old_connections(), weak=False)


@worker_init.connect
def _yield_to_requests(**_) -> None:
    """Background work runs niced (``EARSHOT_WORKER_NICENESS``), before the pool starts,
    so every process of the worker inherits it: on a machine shared with the web
    workers, a recompute takes the cores only when no request needs them."""
    from django.conf import settings

    if settings.EARSHOT_WORKER_NICENESS:
        os.nice(settings.EARSHOT_WORKER_NICENESS)


logger = logging.getLogger(__name__)
_restore_unacked = kombu_redis.QoS.restore_unacked


def _restore_unacked_unless_gone(self, client=None):
    """kombu 5.7's Redis transport, when the connection to Redis is lost (Redis restarted),
    closes the channel and restores the unacknowledged messages through that connection,
    which is already gone: ``AttributeError: 'NoneType' object has no attribute
    'hostname'`` escapes and the worker stops with "Unrecoverable error" instead of
    reconnecting (the kombu issues about ``_connparams``, e.g. celery/kombu#582). Nothing
    can be restored through a lost connection anyway: Redis gives unacknowledged messages
    back after its visibility timeout, and the one sweep sends again whatever a lost
    message left pending (``work/sweep.py``). So the worker carries on and
    reconnects (``tests/test_faults_real.py`` restarts Redis under it)."""
    try:
        return _restore_unacked(self, client)
    except AttributeError:
        logger.warning("the connection to Redis is gone: unacknowledged messages not restored")
        self._delivered.clear()
        return None


kombu_redis.QoS.restore_unacked = _restore_unacked_unless_gone
