"""No path or query parameter gives a 500, on SQLite and on PostgreSQL (issue 20, item 3).

Before: a superscript digit passed ``str.isdigit`` and then ``int()`` failed
(``/t/<token>/audio/<key>/a²``), an id past ``bigint`` reached a query
(``…/audio/99999999999999999999``, a form's ``assessors=99999999999999999999``), a NUL
byte anywhere in a URL or query string was a ``DataError`` on PostgreSQL only
(``/t/a%00b/``, ``?measure=%00``), and a lone surrogate in a DRF choice field failed
while its error was written out. Here every URL of the permission matrix (which lists
every organiser page and API, ``tests/test_permission_matrix.py``) and of the assessor's
and the crowd worker's pages is asked again with each hostile value in each of its path
parameters and in the query parameters the views read. Each answer must be below 500.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from crowd.models import PreferenceCampaign
from relevance.services.campaigns import assignment_next
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.platform_links import prolific_id
from tests.helpers.relevance_data import make_campaign as make_relevance_campaign

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.one_pass(
        "postgresql",
        why="hostile values (NUL, numbers past bigint) are refused by PostgreSQL, not SQLite",
    ),
]

HOSTILE_IDS = ["²", "١", "99999999999999999999", "9223372036854775808", "0", "-1", "%00", "1%00"]
HOSTILE_TEXT = ["%00", "a%00b", "%ED%A0%80", "%C0%80", "x" * 5000]
QUERY_NAMES = ["q", "page", "measure", "worker", "campaign", "fast", "system", "sort", "test"]
ANY_ID = re.compile(r"(?<=/)\d+(?=/|$)")


def hostile_paths(path: str):
    """``path`` with each numeric segment replaced, one at a time, by each hostile id."""
    for match in ANY_ID.finditer(path):
        for value in HOSTILE_IDS:
            yield path[: match.start()] + value + path[match.end() :]


def hostile_queries(path: str):
    for value in HOSTILE_TEXT[:4] + HOSTILE_IDS[:3]:
        yield f"{path}?" + "&".join(f"{name}={value}" for name in QUERY_NAMES)


def status_of(client: Client, method: str, url: str) -> int:
    if method == "GET":
        return client.get(url).status_code
    return client.post(url, {}).status_code


def test_no_path_or_query_parameter_of_an_organiser_url_gives_a_500(client, world):
    client.force_login(world.users["owner"])
    failures = []
    seen = set()
    for url in world.urls:
        for method in {url.method, "GET"}:
            for variant in [*hostile_paths(url.path), *hostile_queries(url.path)]:
                if (method, variant) in seen:
                    continue
                seen.add((method, variant))
                status = status_of(client, method, variant)
                if status >= 500:
                    failures.append(f"{method} {variant[:120]}: {status}")
    assert len(seen) > 1000  # every pattern was asked (the matrix has ~150 URLs)
    assert not failures, "\n".join(failures)


def test_a_form_choosing_rows_refuses_an_id_past_bigint(client, personas):
    client.force_login(personas.organiser)
    form = {"collection": personas.collection.pk, "name": "Big", "cutoff": 5,
            "assessors_per_query": 1, "must_listen_seconds": 0, "take_back_minutes": 60,
            "mode": "pooled", "assessors": "99999999999999999999"}  # fmt: skip
    response = client.post("/relevance-campaigns/new/", form)
    assert response.status_code == 200 and "is not a valid value" in response.content.decode()
    form["collection"] = "99999999999999999999"
    assert client.post("/relevance-campaigns/new/", form).status_code == 200


def test_the_assessors_audio_refuses_hostile_candidates(client, personas):
    campaign = make_relevance_campaign(personas)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    client.force_login(personas.assessor)
    for which in ["²", "99999999999999999999", "%00", "１"]:
        assert client.get(f"/judge/assignments/{work.pk}/audio/{which}").status_code in (400, 404)
    assert client.get("/judge/assignments/99999999999999999999/audio/1").status_code == 404


def test_the_crowd_task_link_refuses_hostile_slots_tokens_and_ids(crowd_collection):
    campaign: PreferenceCampaign = make_campaign(crowd_collection, traps=0)
    worker = Browser(campaign)
    worker.start(f"PROLIFIC_PID={prolific_id('fuzz1')}&STUDY_ID=s&SESSION_ID=x")
    base = f"/t/{campaign.token}/audio/{worker.key}"
    for slot in ["a²", "b١", "a99999999999999999999", "a0", "a%00", "%00", "query%00"]:
        assert worker.get(f"{base}/{slot}").status_code in (400, 404)
    bad = [
        "/t/a%00b/?worker=a", f"/t/{campaign.token}/audio/%00/query", "/audio/x%00",
        f"/t/{campaign.token}/?PROLIFIC_PID=%00", f"/t/{campaign.token}/task/?x=%00",
    ]  # fmt: skip
    for url in bad:
        assert Client().get(url).status_code == 400, url


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/collections/{c}/shares/create/", "access"),
        ("/api/people/create/", "role"),
        ("/api/collections/{c}/results/settings/update/", "test"),
        ("/api/collections/{c}/results/settings/update/", "adjustment"),
        ("/api/relevance-campaigns/create/", "mode"),
        ("/api/relevance-campaigns/create/", "lowcost_target"),
    ],
)
def test_a_lone_surrogate_in_a_choice_field_is_a_400_that_quotes_it_escaped(
    client, personas, path, field
):
    client.force_login(personas.organiser)
    fields = {"username": "u", "name": "n", "collection": personas.collection.pk}
    body = json.dumps({**fields, field: "\ud800"})  # json writes the lone surrogate escaped
    url = path.format(c=personas.collection.pk)
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400, (url, response.content[:300])
    assert "\\ud800" in response.content.decode()  # quoted back, escaped: valid UTF-8 JSON


def every_route(patterns=None, prefix: str = ""):
    """Every URL pattern of the site as a route string (``t/<str:token>/task/``), admin aside."""
    from django.urls import URLPattern, URLResolver, get_resolver

    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.namespace != "admin":
                yield from every_route(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and "<" in route:
            yield route


PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def test_every_url_pattern_with_hostile_parameters_answers_below_500(client, world):
    """Each parameter of each pattern (ids, task tokens, keys, slots, clip names) at once."""
    routes = sorted(set(every_route()))
    assert len(routes) > 100  # the whole site, not a sample
    organiser = Client()
    organiser.force_login(world.users["owner"])
    failures = []
    for route in routes:
        kinds = {converter or "str" for converter, _ in PARAMETER.findall(route)}
        values = HOSTILE_IDS[:4] if kinds == {"id"} else HOSTILE_TEXT[:3] + HOSTILE_IDS[:2]
        for value in values:
            url = "/" + PARAMETER.sub(value, route)
            for who, method in ((organiser, "GET"), (organiser, "POST"), (client, "GET")):
                status = status_of(who, method, url)
                if status >= 500:
                    failures.append(f"{method} {url[:120]}: {status}")
    assert not failures, "\n".join(failures)
