import os

from django.core.wsgi import get_wsgi_application
from django.urls import reverse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# Import the URLconf (and with it every view) and build its table of reverse lookups now,
# while the worker starts, rather than in its first request, which used to wait 1–3 s for
# them (docs/benchmarks.md).
reverse("home")
