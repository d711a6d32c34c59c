"""Django's development server (``manage.py runserver``, ``make run``, the tests' live server)
handing each request its client connection, as gunicorn does.

The audio views count what reached the client by what its TCP acknowledged
(:mod:`listening.audio_delivery`), which needs the connection: gunicorn puts it in the WSGI
environ (``gunicorn.socket``); Django's server does not, so this app's ``runserver`` (it
comes first in ``INSTALLED_APPS``, before whitenoise's, which it extends) serves with
:func:`config.devserver.server.connection_aware`, which adds it under
``listening.audio_delivery.CONNECTION_KEY``. Nothing else changes.
"""
