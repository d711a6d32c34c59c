"""``runserver`` as whitenoise's (static files left to whitenoise), serving with a server
that hands each request its connection (:mod:`config.devserver`)."""

from django.core.servers.basehttp import WSGIServer
from whitenoise.runserver_nostatic.management.commands.runserver import (
    Command as NoStaticRunserver,
)

from config.devserver.server import connection_aware


class Command(NoStaticRunserver):
    server_cls = connection_aware(WSGIServer)
