"""A crowd worker's browser as plain HTTP: Django's test client, one per browser.

What a dishonest worker with a script can do is exactly what these methods do: open
links, read the HTML, fetch the audio URLs it names, post forms. Nothing here reads the
database except :meth:`Browser.wait`, which moves the open task's serving time back
instead of sleeping (the server's clock rule is what is tested, not the test's patience).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.utils import timezone

from crowd.models import PreferenceCampaign, PreferenceTask, Worker
from listening.models import AudioServed

AUDIO_SRC = re.compile(r'<audio[^>]* src="([^"]+)"')
KEY = re.compile(r'name="key" value="([^"]+)"')
CONSENT_TOKEN = re.compile(r'name="token" value="([^"]+)"')


class Browser:
    """One browser (its own cookies) working on one campaign through the task link.

    Each browser is another person's unless told: its own client address (10.x.y.z, from
    a counter). An attacker's throwaway identities share one ``address`` (and user agent).
    """

    _people = 0

    def __init__(
        self, campaign: PreferenceCampaign, *, address: str | None = None, user_agent: str = ""
    ):
        if address is None:
            Browser._people += 1
            n = Browser._people
            address = f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        self.campaign = campaign
        self.client = Client(REMOTE_ADDR=address, HTTP_USER_AGENT=user_agent)
        self.base = f"/t/{campaign.token}"
        self.page = None
        self.responses: list = []

    def _keep(self, response):
        self.responses.append(response)
        return response

    def get(self, path: str, **kwargs):
        """GET ``path``; a streamed body (audio) is read to its end, as a browser playing it
        does: the server counts audio only as it is delivered (``received`` holds it)."""
        response = self.client.get(path, **kwargs)
        if response.streaming:
            response.received = b"".join(response.streaming_content)
        return self._keep(response)

    def post(self, path: str, data: dict):
        return self._keep(self.client.post(path, data))

    def arrive(self, query: str):
        return self.get(f"{self.base}/?{query}")

    def consent(self):
        page = self.get(f"{self.base}/consent/")
        token = CONSENT_TOKEN.search(page.content.decode()).group(1)
        return self.post(f"{self.base}/consent/", {"agree": "on", "token": token})

    def start(self, query: str):
        """Arrive, consent and open the first task."""
        self.arrive(query)
        self.consent()
        return self.task()

    def task(self):
        self.page = self.get(f"{self.base}/task/")
        return self.page

    def done(self):
        return self.get(f"{self.base}/done/")

    def end(self):
        return self.get(f"{self.base}/end/")

    def alive(self, key: str | None = None):
        """The task page's heartbeat (``crowd/static/crowd/task.js``)."""
        return self.post(f"{self.base}/alive/{key or self.key}/", {})

    @property
    def key(self) -> str | None:
        found = KEY.search(self.page.content.decode()) if self.page is not None else None
        return found.group(1) if found else None

    def audio_urls(self) -> list[str]:
        return AUDIO_SRC.findall(self.page.content.decode())

    def listen(self, *, query: bool = True, per_list: int = 1, then_wait: float = 0) -> list:
        """Fetch the query's audio and the first ``per_list`` clips of each list; then, as
        if ``then_wait`` seconds had passed (:meth:`wait`: hearing them one at a time)."""
        urls = self.audio_urls()
        wanted = [u for u in urls if u.endswith("/query")] if query else []
        for side in ("a", "b"):
            wanted += [u for u in urls if re.search(rf"/{side}\d+$", u)][:per_list]
        responses = [self.get(url, HTTP_RANGE="bytes=0-") for url in wanted]
        if then_wait:
            self.wait(then_wait)
        return responses

    def wait(self, seconds: float) -> None:
        """As if ``seconds`` had passed since the open task was shown, and since its first
        audio was sent (when any was)."""
        moved = timezone.now() - timedelta(seconds=seconds)
        PreferenceTask.objects.filter(key=self.key).update(served_at=moved)
        AudioServed.objects.filter(task__key=self.key).update(first_sent_at=moved)

    def answer(self, choice: str, comment: str = ""):
        return self.post(
            f"{self.base}/task/", {"key": self.key, "choice": choice, "comment": comment}
        )

    def everything_seen(self) -> str:
        """Every header and body this browser received, as one text."""
        return "\n".join(
            str(r.headers) + (r.content.decode(errors="replace") if not r.streaming else "")
            for r in self.responses
        )


def open_task(client, campaign, query="worker=w1", seed=12345):
    """Arrive, consent, open the first task; the worker's random draws are seeded."""
    client.get(f"/t/{campaign.token}/?{query}")
    newest = Worker.objects.filter(campaign=campaign).latest("pk")
    Worker.objects.filter(pk=newest.pk).update(seed=seed)
    page = client.get(f"/t/{campaign.token}/consent/")
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    client.post(f"/t/{campaign.token}/consent/", {"agree": "on", "token": token})
    return client.get(f"/t/{campaign.token}/task/")


def key_of(response) -> str:
    return re.search(r'name="key" value="([^"]+)"', response.content.decode()).group(1)
