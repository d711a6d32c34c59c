"""What the whole-study Chromium tests share (``tests/journeys/test_whole_study_browser.py``
and ``test_broad_only_study_browser.py``): a new collection, tone files uploaded through
the pages, every browser watched
for error pages, each person's own browser, a Prolific participant's link, consent,
listening and answering, and the last page.

A participant's browser is another context of the test's Chromium, with its own user
agent (another computer); Prolific's pages, where participants return, are answered
locally, never fetched.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from crowd.models import CHOICE_LABELS
from tests.helpers.audio_files import tone
from tests.helpers.browser import count, wait_for_next_page, watch_to_the_result
from tests.helpers.platform_links import prolific_id


def create_a_collection(page, name: str) -> None:
    """ "New collection" from the collections page, named ``name``; the organiser ends on
    its page."""
    page.get_by_role("link", name="New collection").click()
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Create collection").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def tone_files(folder: Path, clips: dict[str, tuple[str, float]]) -> list[Path]:
    """A 1 s tone file in ``folder`` for each ``{clip id: (format suffix, pitch in Hz)}``,
    named after the clip: what the organiser uploads."""
    files = []
    for clip, (suffix, pitch) in clips.items():
        files.append(folder / f"{clip}{suffix}")
        files[-1].write_bytes(tone(suffix, 1.0, freq=pitch))
    return files


def upload_through_the_pages(page, collection: str, uploads: list) -> None:
    """Each upload from the collection's "Upload files" page, with the form's default
    options, watched to its result: ``uploads`` holds, for each, the link on the uploads
    page, the job's title, the form's file field, the files and ``{row of the result:
    count}``. The organiser ends on the collection's page."""
    for link, title, label, files, counts in uploads:
        page.get_by_role("link", name="Upload files").click()
        page.get_by_role("link", name=link, exact=True).click()
        page.get_by_label(label).set_input_files(files)
        page.get_by_role("button", name="Upload and import").click()
        watch_to_the_result(page, f"Upload of {title}")
        for what, n in counts.items():
            expect(count(page, what)).to_have_text(n)
        page.get_by_role("link", name=collection).first.click()


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


def decline(worker, url: str, code: str) -> None:
    """The participant opens the study's ``url`` and does not consent: they are shown the
    no-consent ``code`` (Prolific's convention)."""
    worker.goto(url)
    worker.get_by_role("button", name="I do not consent").click()
    expect(worker.get_by_role("heading", name="You chose not to take part")).to_be_visible()
    expect(worker.locator("#no-consent-code")).to_have_text(code)


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
