"""Trap questions never reach a worker's browser: not in the HTML, the JavaScript, the
responses' headers, nor in what the server does to build them (same SQL statements,
so no timing difference beyond noise)."""

import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from crowd.explanations import explanation_shown
from crowd.models import PreferenceTask, TrapQuestion, Worker
from tests.helpers.crowd_fixtures import make_campaign, right_choice
from tests.helpers.crowd_http import Browser, key_of, open_task

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "crowd" / "static" / "crowd"


def normalise_html(html: str) -> str:
    """The page with what legitimately differs between two tasks blanked out."""
    html = re.sub(r'name="key" value="[^"]+"', 'name="key" value="KEY"', html)
    html = re.sub(r"/audio/[\w-]+", "/audio/TOKEN", html)  # per-task audio URLs hold the key
    html = re.sub(r"/alive/[\w-]+/", "/alive/KEY/", html)  # and so does the heartbeat's
    html = re.sub(r"/heard/[\w-]+/", "/heard/KEY/", html)  # and what the server heard
    html = re.sub(r"Task \d+ of", "Task N of", html)
    return html


def normalise_sql(queries) -> list[str]:
    sql = [re.sub(r'"s\d+_x\d+"', "SAVEPOINT_NAME", q["sql"]) for q in queries]
    return [
        re.sub(r"'[^']*'|\b\d+(\.\d+)?\b|\b(NULL|true|false)\b", "?", q) for q in sql
    ]  # values differ


def secrets_of(campaign) -> list[str]:
    """Strings that would give a trap question away."""
    words = ["trap", "gold", "accepted", "explanation", "correct"]
    for trap in TrapQuestion.objects.filter(example__campaign=campaign):
        words += [explanation_shown(trap.explanation, swapped=s) for s in (False, True)]
        words.append(f"example {trap.example_id}")
    return words


def test_no_page_header_or_script_a_worker_can_get_mentions_trap_questions(
    client, crowd_collection
):
    campaign = make_campaign(
        crowd_collection, traps=4, trap_rate=0.5, min_trap_answers=1, trust_threshold=0.5
    )
    responses = [client.get(f"/t/{campaign.token}/?worker=w1")]
    responses.append(client.get(f"/t/{campaign.token}/consent/"))
    responses.append(open_task(client, campaign, "worker=w1"))
    served_traps = 0
    for _ in range(40):
        page = client.get(f"/t/{campaign.token}/task/")
        responses.append(page)
        if page.status_code != 200:
            break
        task = PreferenceTask.objects.get(key=key_of(page))
        served_traps += hasattr(task.example, "trap")
        post = client.post(
            f"/t/{campaign.token}/task/", {"key": task.key, "choice": right_choice(task)}
        )
        responses.append(post)
    responses.append(client.get(f"/t/{campaign.token}/done/"))
    assert served_traps >= 2  # the walk did meet trap questions

    texts = [str(r.headers) + r.content.decode() for r in responses]
    texts += [path.read_text() for path in STATIC.glob("task*.js")]
    for text in texts:
        lowered = text.lower()
        for secret in secrets_of(campaign):
            assert secret.lower() not in lowered, secret


def test_a_trap_question_and_an_example_render_the_same_markup_with_the_same_statements(
    client, crowd_collection
):
    # One quiz question makes the worker trusted at once; then traps come at random.
    campaign = make_campaign(crowd_collection, traps=6, quiz_length=1, trap_rate=0.5)
    open_task(client, campaign, "worker=w1")
    pages, statements = {}, {}
    for _ in range(30):
        with CaptureQueriesContext(connection) as render_queries:
            page = client.get(f"/t/{campaign.token}/task/")
        # Read at once: the next request clears Django's query log (and an empty list
        # would compare equal to anything).
        render_sql = normalise_sql(render_queries)
        if page.status_code != 200:
            break
        task = PreferenceTask.objects.get(key=key_of(page))
        kind = "trap" if hasattr(task.example, "trap") else "plain"
        # What the server does depends on the worker's state (trusted or not yet), never
        # on the kind of task: compare tasks answered in the same (trusted) state.
        steady = Worker.objects.get(pk=task.worker_id).trusted
        with CaptureQueriesContext(connection) as answer_queries:
            client.post(
                f"/t/{campaign.token}/task/", {"key": task.key, "choice": right_choice(task)}
            )
        if steady:
            pages.setdefault(kind, normalise_html(page.content.decode()))
            statements.setdefault(kind, (render_sql, normalise_sql(answer_queries)))
    assert set(pages) == {"trap", "plain"}
    assert pages["trap"] == pages["plain"]
    assert statements["trap"][0] and statements["trap"][1]
    assert statements["trap"][0] == statements["plain"][0]  # rendering the task
    assert statements["trap"][1] == statements["plain"][1]  # answering it


def test_trap_and_plain_tasks_match_in_size_headers_audio_refusals_and_redirects(
    audible_collection,
):
    """Issue 12: nothing a worker can measure tells a work-mode trap question apart —
    the page's size, its headers, the statements behind its audio and behind a refused
    answer, the refusal itself, and where an answer redirects."""
    campaign = make_campaign(
        audible_collection, traps=6, quiz_length=1, trap_rate=0.5, listening_check=True,
        min_seconds_on_task=5,
    )  # fmt: skip
    browser = Browser(campaign)
    browser.start("worker=w1")
    # A fixed seed fixes which positions roll a trap (a random one left no steady work-mode
    # trap before the plain examples ran out about once in a few hundred runs).
    assert Worker.objects.filter(campaign=campaign, platform_id="w1").update(seed=12345) == 1
    seen: dict[str, dict] = {}
    for _ in range(30):
        page = browser.task()
        if page.status_code != 200:
            break
        task = PreferenceTask.objects.get(key=browser.key)
        steady = Worker.objects.get(pk=task.worker_id).trusted and not task.is_quiz
        kind = "trap" if hasattr(task.example, "trap") else "plain"
        # (Statements are read at once: the next request clears Django's query log.)
        with CaptureQueriesContext(connection) as captured:
            refusal = browser.answer(right_choice(task))  # too soon, nothing heard
        refusal_sql = normalise_sql(captured)
        audio_url = next(u for u in browser.audio_urls() if u.endswith("/a1"))
        with CaptureQueriesContext(connection) as captured:
            audio = browser.get(audio_url, HTTP_RANGE="bytes=0-99")
        audio_sql = normalise_sql(captured)
        assert refusal_sql and audio_sql
        browser.listen()
        browser.wait(16)  # three clips relied on, one at a time (issue 23)
        answered = browser.answer(right_choice(task))
        if steady and kind not in seen:
            headers = {k: v for k, v in page.headers.items() if k != "Content-Length"}
            seen[kind] = {
                "size": len(page.content) - len(str(task.position)),
                "headers": headers,
                "audio": (audio.status_code, audio_sql, sorted(k for k in audio.headers)),
                "refusal": (refusal.status_code, refusal_sql,
                            re.search(r'id="refusal">([^<]*)<', refusal.content.decode()).group(1)),
                "redirect": (answered.status_code, answered.url),
            }  # fmt: skip
    assert set(seen) == {"trap", "plain"}
    for aspect in ("size", "headers", "audio", "refusal", "redirect"):
        assert seen["trap"][aspect] == seen["plain"][aspect], aspect
