"""Who may do what: every organiser page and API URL × every persona × its methods.

One collection is owned by olivia, shared in full with fiona and read-only with rita;
oscar is another organiser, ada an assessor. The one access rule
(:mod:`catalog.selectors.access`) must give:

=================  =========  ==========  =========  ===========  ==========
need of the URL    owner      full        read-only  other org.   assessor / anonymous
=================  =========  ==========  =========  ===========  ==========
read               ok         ok          ok         404          403 / log in
write              ok         ok          403        404          403 / log in
share              ok         403         403        404          403 / log in
organiser          ok         ok          ok         ok           403 / log in
=================  =========  ==========  =========  ===========  ==========

"ok" is the URL's success status (200 for a page, 302 back to a page after a form,
201/202 for an API that creates or starts). A method the URL does not serve never
succeeds, for anyone. Every request runs in a savepoint that is rolled back, so each
persona meets the same data; :func:`test_every_organiser_url_is_in_the_matrix` fails
when a new URL is not listed here.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.helpers.pages import OK_FOR, PERSONAS, Url

pytestmark = pytest.mark.django_db


NOT_IN_THE_MATRIX = {
    # People without an account or role (their own access rules are tested with them).
    "home", "login", "logout", "catalog:clip_audio", "people:invitation",
    "relevance:assignment_next", "relevance:assignment", "relevance:judgment_save",
    "relevance:ranking_save",
    "crowd:task_arrive", "crowd:task_consent", "crowd:task", "crowd:task_feedback",
    "crowd:task_done", "crowd:task_audio", "relevance:assignment_audio", "crowd:task_alive", "crowd:task_heard",
    "crowd:task_end", "crowd:task_headphones", "crowd:task_headphones_calibration",
    "crowd:task_headphone_trial", "crowd:task_headphone_audio",
    "relevance:assessor_headphones", "relevance:assessor_headphones_calibration",
    "relevance:assessor_headphone_trial", "relevance:assessor_headphone_audio",
    "relevance:assessor_headphones_again",
    "api:schema", "api:docs", "api:token",
}  # fmt: skip


def _send(client: Client, url: Url, method: str):
    """One request in a savepoint that is rolled back: every persona meets the same data."""
    kwargs = {}
    if url.api and method in ("POST", "PUT"):
        kwargs = {"data": url.data, "content_type": "application/json"}
    elif method in ("POST", "PUT"):
        kwargs = {"data": url.data}
    with transaction.atomic():
        response = getattr(client, method.lower())(url.path, **kwargs)
        transaction.set_rollback(True)
    return response


def _outcome(url: Url, response) -> str:
    status = response.status_code
    if status == url.ok:
        if status == 302 and response["Location"].startswith("/login/"):
            return "log in"
        return "ok"
    if status in (302, 401) and (url.api or response["Location"].startswith("/login/")):
        return "log in"
    return {403: "403", 404: "404", 405: "405"}.get(status, f"status {status}")


def _expected(url: Url, persona: str) -> str:
    if persona == "anonymous":
        return "log in"
    if persona == "assessor":
        return "403"
    if persona in OK_FOR[url.need]:
        return "ok"
    if url.need == "person":  # fiona sees bea through a campaign on c but may not reset her
        return "403" if persona == "full" else "404"
    if url.refused:
        return url.refused
    return "404" if persona == "other" else "403"


def test_each_persona_gets_exactly_what_the_rule_gives(world):
    clients = {}
    for persona, user in world.users.items():
        clients[persona] = Client()
        if user is not None:
            clients[persona].force_login(user)
    wrong = []
    for url in world.urls:
        for persona in PERSONAS:
            got = _outcome(url, _send(clients[persona], url, url.method))
            if got != _expected(url, persona):
                wrong.append(
                    f"{persona:9} {url.method:4} {url.path}: {got}, expected {_expected(url, persona)}"
                )
    assert not wrong, "\n".join(wrong)


def test_no_method_a_url_does_not_serve_succeeds_for_anyone(world):
    served = {}
    for url in world.urls:
        served.setdefault(url.path.split("?")[0], (url, set()))[1].add(url.method)
    clients = {p: Client() for p in ("owner", "read")}
    for persona, client in clients.items():
        client.force_login(world.users[persona])
    wrong = []
    for path, (url, methods) in served.items():
        for method in {"GET", "POST", "PUT", "DELETE"} - methods:
            probe = Url(url.name, method, path, url.need, url.ok, url.data)
            for persona, client in clients.items():
                status = _send(client, probe, method).status_code
                if status < 400 and not (status == 302 and persona == "anonymous"):
                    wrong.append(f"{persona} {method} {path}: {status}")
    assert not wrong, "\n".join(wrong)


def _names(patterns, namespace=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = (
                f"{namespace}:{pattern.namespace}"
                if namespace and pattern.namespace
                else (pattern.namespace or namespace)
            )
            yield from _names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_every_organiser_url_is_in_the_matrix(world):
    listed = {url.name for url in world.urls}
    missing = sorted(set(_names(get_resolver().url_patterns)) - listed - NOT_IN_THE_MATRIX)
    assert not missing, f"add these URLs to the permission matrix: {missing}"
