"""What the whole-study Chromium tests share (``tests/journeys/test_whole_study_browser.py``
and ``test_broad_only_study_browser.py``): every browser watched for error pages, each
person's own browser, a Prolific participant's link, consent, listening and answering,
and the last page.

A participant's browser is another context of the test's Chromium, with its own user
agent (another computer); Prolific's pages, where participants return, are answered
locally, never fetched.
"""

from __future__ import annotations

from playwright.sync_api import expect

from crowd.models import CHOICE_LABELS
from tests.helpers.browser import wait_for_next_page
from tests.helpers.platform_links import prolific_id


class NoDeadEnds:
    """Every page of every browser watched: no navigation may answer 4xx or 5xx, and no
    script may fail (the ``page`` fixture's own check, for the other browsers too)."""

    def __init__(self):
        self.bad: list[str] = []

    def watch(self, page):
        def response(r):
            if r.request.is_navigation_request() and r.status >= 400:
                self.bad.append(f"{r.status} {r.request.method} {r.url}")

        page.on("response", response)
        page.on("pageerror", lambda error: self.bad.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda m: m.type == "error" and self.bad.append(f"{page.url}: {m.text}"),
        )
        return page


def browser(page, dead_ends: NoDeadEnds, base_url: str, user_agent: str):
    """Another person's own browser (on another computer: another user agent)."""
    context = page.context.browser.new_context(
        base_url=base_url, user_agent=user_agent, viewport={"width": 1280, "height": 900}
    )
    context.route(  # Prolific's pages, where participants return: not on the network
        "https://app.prolific.com/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body="<h1>Prolific</h1>"),
    )
    return dead_ends.watch(context.new_page())


def study_url(copied: str, participant: str) -> str:
    """The copied URL as Prolific opens it for one participant (its ids filled in: the
    participant's Prolific id made from their name)."""
    pid = prolific_id(participant)
    ids = {"PROLIFIC_PID": pid, "STUDY_ID": "study-1", "SESSION_ID": f"s-{participant}"}
    for name, value in ids.items():
        copied = copied.replace(f"{{{{%{name}%}}}}", value)
    return copied


def consent(worker) -> None:
    expect(worker.get_by_role("heading", name="Before you start")).to_be_visible()
    worker.get_by_label("I have read the information above and agree to take part").check()
    worker.get_by_role("button", name="Start").click()


LISTEN = """() => { (async () => {
  for (const label of ["Query clip", "List A, clip 1", "List B, clip 1"]) {
    const audio = document.querySelector(`audio[aria-label='${label}']`);
    await new Promise((ended) => { audio.addEventListener("ended", ended, { once: true });
                                   audio.play(); });
  }
})(); }"""
"""The participant plays the query and the first clip of each list, one at a time, each to
its end (what the listening check asks): started here, it goes on while other people act."""


def answer_once_ready(worker, choice: str) -> None:
    """Wait for the page to say the answer can go (the server counts the clips as heard),
    then answer with the mouse."""
    expect(worker.locator("#listen-status")).to_have_text("Ready: you can answer.")
    key = worker.locator('input[name="key"]').get_attribute("value")
    worker.get_by_role("radio", name=CHOICE_LABELS[choice], exact=True).check()
    worker.get_by_role("button", name="Submit answer").click()
    wait_for_next_page(worker, key)


def finish(worker) -> None:
    expect(worker.get_by_role("heading", name="No more tasks for you")).to_be_visible()
    worker.get_by_role("link", name="Finish the study").click()
