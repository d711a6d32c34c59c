"""What Chromium tests share: logging in as a person does (:func:`log_in`), screenshots
(:data:`SHOTS`), the judging page's saved state, an upload watched to its result, a
crowd task played and answered, the headphone check passed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from crowd.models import PreferenceTask
from listening.models import HeadphoneTrial

REAL_WORKER_JOURNEY = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    pytest.mark.real_handoff,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("worker_files"),  # uploads and audio where the worker reads them
]
"""The marks of a journey in Chromium whose work the real Celery worker does (its
``pytestmark``): the worker process, hand-offs sent to the broker, committed rows it can
read, and files where it reads them."""

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
"""Where browser tests save screenshots of what a person saw (not kept in git)."""


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def wait_saved(page):
    page.wait_for_function("() => document.getElementById('save-status').dataset.kind === 'saved'")
    expect(page.locator("#save-status")).to_have_text("All changes saved")


def watch_to_the_result(page, title: str):
    """The job page shows a progress bar, then moves to the result by itself."""
    expect(page).to_have_url(re.compile(r"/jobs/\d+/(result/)?$"))
    if not page.url.endswith("/result/"):
        expect(page.get_by_label("Progress")).to_be_attached()
    expect(page).to_have_url(re.compile(r"/jobs/\d+/result/$"), timeout=90_000)
    expect(page.get_by_role("heading", name=f"{title}: done")).to_be_visible()


def count(page, what: str):
    return page.get_by_role("row", name=re.compile(f"^{what} ")).get_by_role("cell")


def pass_the_headphone_check(page) -> None:
    """Set the volume on the calibration noise, then answer the six trials right."""
    expect(page.get_by_role("heading", name="Set your volume")).to_be_visible()
    play_through(page, "Calibration noise")
    page.get_by_role("link", name="Start the headphone check").click()
    for position in range(1, 7):
        expect(page.get_by_text(f"Question {position} of 6")).to_be_visible()
        play_through(page, "Three tones")
        key = page.locator('input[name="key"]').get_attribute("value")
        heard = HeadphoneTrial.objects.get(key=key).target  # the listener's ears
        page.get_by_role("radio", name=ORDINALS[heard], exact=True).check()
        page.get_by_role("button", name="Next").click()


def current_task(page) -> PreferenceTask:
    key = page.locator('input[name="key"]').get_attribute("value")
    return PreferenceTask.objects.select_related("example").get(key=key)


def wait_for_next_page(page, key: str) -> None:
    """Wait for the page after the task ``key``, loaded to the end: its form can be parsed
    before its module script (the keys 1–4) has run, and a key pressed then is lost."""
    page.wait_for_function(
        "key => { const i = document.querySelector('input[name=key]'); return !i || i.value !== key; }",
        arg=key,
    )
    page.wait_for_load_state("load")


def listen(page) -> None:
    """Play the query and the first clip of each list, one at a time, each to its end (the
    server asks for the time of every clip relied on since the first: issue 23)."""
    for label in ("Query clip", "List A, clip 1", "List B, clip 1"):
        page.get_by_label(label, exact=True).evaluate("audio => audio.play()")
        page.wait_for_function(
            "label => document.querySelector(`audio[aria-label='${label}']`).ended",
            arg=label,
        )


def start(page, link: str) -> None:
    page.goto(link)
    page.get_by_label("I have read the information above and agree to take part").check()
    page.get_by_role("button", name="Start").click()


ORDINALS = {1: "The first", 2: "The second", 3: "The third"}


def play_through(page, label: str) -> None:
    player = page.get_by_label(label, exact=True)
    player.evaluate("audio => { audio.playbackRate = 16; audio.play(); }")
    page.wait_for_function(
        "label => document.querySelector(`audio[aria-label='${label}']`).ended", arg=label
    )


def log_in(page, username: str, password: str) -> None:
    from playwright.sync_api import expect

    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    # The next page, not the login page still loaded: a goto before the answer to the
    # POST arrives would cancel it (and its session cookie) under a busy machine.
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


AXE = (Path(__file__).resolve().parent.parent / "assets" / "axe-core-4.14.1.min.js").read_text()


def violations(page) -> list[str]:
    page.evaluate(AXE)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))"
    )
    return found
