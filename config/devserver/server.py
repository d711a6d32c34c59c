"""A development server class whose requests carry their connection (see the package doc)."""

from __future__ import annotations

from functools import cache

from listening.audio_delivery import CONNECTION_KEY


class ConnectionInEnviron:
    """A request handler mixin: the WSGI environ gets the client's socket."""

    def get_environ(self):
        environ = super().get_environ()
        environ[CONNECTION_KEY] = self.connection
        return environ


@cache
def _handler_with_connection(handler_class: type) -> type:
    return type(handler_class.__name__, (ConnectionInEnviron, handler_class), {})


@cache
def connection_aware(server_class: type) -> type:
    """``server_class`` (Django's ``WSGIServer`` or ``ThreadedWSGIServer``), serving with
    its handler class extended by :class:`ConnectionInEnviron`."""

    def __init__(self, address, handler_class, *args, **kwargs):
        server_class.__init__(
            self, address, _handler_with_connection(handler_class), *args, **kwargs
        )

    return type(server_class.__name__, (server_class,), {"__init__": __init__})
