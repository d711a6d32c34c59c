"""Results pages and status polls make a fixed number of queries, whatever the collection's size.

Two collections get their results the way a recompute stores them
(``collection_results_store`` on in-memory runs and judgments, paired t-test so that no
resampling slows the test; a campaign's mapping from the answers of
``evaluation/tests/test_campaign_mapping.py``): a small one (3 systems × 4 queries, one campaign)
and a larger one (24 systems × 150 queries: 276 pairs and 150 per-query rows, more than a
page of each; three campaigns). Every page must make exactly the number of queries
pinned in :data:`QUERIES` on both, and no page but the exports may read a leaderboard's
whole payload. On PostgreSQL, every query of every page must be answerable through an
index (``EXPLAIN`` with sequential scans disabled shows none).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalog.models import Collection, System
from crowd.models import PreferenceCampaign
from evaluation.core.answers import mapping_payload
from evaluation.models import ResultsConfig, SatisfactionMapping
from evaluation.selectors import CollectionRuns, QrelsRecord
from evaluation.services.leaderboards import collection_results_store
from tests.helpers.mappings import ANSWERS, columns

pytestmark = pytest.mark.django_db
MEASURE = "CG(scale=fine)@5"

# Every request starts with the session, its user and the organiser role (3 queries),
# then the one access rule reads the collection (1). Then, per page:
QUERIES = {
    # leaderboards, estimated leaderboards, studies, campaigns, their mappings, the recompute
    "overview": 4 + 6,
    "leaderboard": 4 + 4,  # summary, the systems' ids for links, whether a study exists, recompute
    "significance": 4 + 4,  # summary and p-values, count of pairs, a page of them, recompute
    "significance page 2": 4 + 4,
    # the system by id, its leaderboard row with the leaderboard's name and time, the recompute
    "system": 4 + 3,
    "system page 2": 4 + 3,
    "reliability": 4 + 2,  # the study, the recompute
    "mapping": 4 + 4,  # the campaign, the mapping, the campaign's measures, its recompute
    "choosing a test": 4 + 2,  # the study, its recompute
    "status.json": 4 + 2,  # the recompute; when each leaderboard and study was computed (one)
    "status.json?campaign": 4 + 5,  # and the campaign, its recompute and its mappings
    "status.json?part=optimality": 4 + 3,  # and the study's recompute
    "404 measure": 4 + 1,  # no such leaderboard
    "404 system": 4 + 1,  # no such system id: one primary-key lookup, no payload read
    "404 page of plots": 4 + 1,
    "404 collection": 4,  # the access rule says no
}


def collection_with_results(owner, *, name, systems, queries, campaigns, seed=0):
    """A collection whose results were stored by the recompute's own store function."""
    rng = np.random.default_rng(seed)
    collection = Collection.objects.create(name=name, owner=owner)
    ResultsConfig.objects.create(collection=collection, test="t", measures=[MEASURE])
    query_ids = tuple(f"q{j:03d}" for j in range(queries))
    system_ids = tuple(f"S{i:02d}" for i in range(systems))
    qrels = [
        QrelsRecord(q, f"{q}-d{d}", None, float(rng.integers(0, 101)))
        for q in query_ids
        for d in range(10)
    ]
    rankings = {
        s: {q: [f"{q}-d{d}" for d in rng.choice(10, size=5, replace=False)] for q in query_ids}
        for s in system_ids
    }
    for s in system_ids:
        System.objects.create(collection=collection, name=s)
    runs = CollectionRuns(systems=system_ids, queries=query_ids, rankings=rankings)
    collection_results_store(collection=collection, runs=runs, qrels=qrels)
    payload = mapping_payload(MEASURE, *columns(ANSWERS))
    for c in range(campaigns):
        campaign = PreferenceCampaign.objects.create(collection=collection, name=f"Study {c}")
        SatisfactionMapping.objects.create(
            campaign=campaign, measure=MEASURE, payload=payload, computed_at=timezone.now()
        )
    return collection


def urls(collection) -> dict[str, str]:
    m = quote(MEASURE)
    s01 = collection.systems.get(name="S01").pk
    base = f"/collections/{collection.pk}/results/"
    campaign = collection.preference_campaigns.order_by("pk").first().pk
    return {
        "overview": base,
        "leaderboard": f"{base}leaderboard/?measure={m}",
        "significance": f"{base}significance/?measure={m}",
        "significance page 2": f"{base}significance/?measure={m}&page=2",
        "system": f"{base}systems/{s01}/?measure={m}",
        "system page 2": f"{base}systems/{s01}/?measure={m}&page=2",
        "reliability": f"{base}reliability/?measure={m}",
        "mapping": f"{base}mapping/?campaign={campaign}&measure={m}",
        "choosing a test": f"{base}choosing-a-test/",
        "status.json": f"{base}status.json",
        "status.json?campaign": f"{base}status.json?campaign={campaign}",
        "status.json?part=optimality": f"{base}status.json?part=optimality",
        "404 measure": f"{base}leaderboard/?measure=P%405",
        "404 system": f"{base}systems/999999/?measure={m}",
        "404 page of plots": f"{base}significance/plots/pvalues.csv?measure=P%405",
        "404 collection": "/collections/999999/results/",
    }


@pytest.fixture
def small(personas):
    return collection_with_results(
        personas.organiser, name="small", systems=3, queries=4, campaigns=1
    )


@pytest.fixture
def larger(personas):
    return collection_with_results(
        personas.organiser, name="larger", systems=24, queries=150, campaigns=3
    )


def requests(client, collection) -> dict[str, list[str]]:
    """The SQL of each page's request, checking its status on the way."""
    made = {}
    for page, url in urls(collection).items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == (404 if page.startswith("404") else 200), (page, url)
        made[page] = [q["sql"] for q in queries.captured_queries]
    return made


def test_each_page_makes_the_same_pinned_number_of_queries_for_a_small_and_a_larger_collection(
    organiser, small, larger
):
    for collection in (small, larger):
        made = requests(organiser, collection)
        counts = {page: len(sql) for page, sql in made.items()}
        assert counts == QUERIES, collection.name


def test_no_page_reads_a_leaderboards_whole_payload(organiser, larger):
    for page, sql in requests(organiser, larger).items():
        read = [q for q in sql if re.search(r'"evaluation_leaderboard"\."payload"', q)]
        assert not read, page


def test_long_lists_come_a_page_at_a_time(organiser, larger):
    pages = urls(larger)
    first = organiser.get(pages["significance"]).content.decode()
    second = organiser.get(pages["significance page 2"]).content.decode()
    # 24 systems make 24·23/2 = 276 pairs, 50 to a page, in the payload's order: the
    # first page starts with the best system against the second, the second page with
    # the 51st pair (the best system has 23 pairs, the second 22: pair 51 is the
    # third system against the ninth).
    assert "Pairs 1–50 of 276" in first and "Page 1 of 6" in first
    assert "Pairs 51–100 of 276" in second
    assert first.count("<tr><td>") == 50 and second.count("<tr><td>") == 50
    board = larger.leaderboards.get(measure=MEASURE)
    ranked = board.payload["systems"]
    assert f"<td>{ranked[2]} − {ranked[8]}</td>" in second.split("<tbody>")[1][:400]
    queries = organiser.get(pages["system page 2"]).content.decode()
    assert "Queries 101–150 of 150" in queries and "<td>q100</td>" in queries
    assert "<td>q099</td>" not in queries
    beyond = organiser.get(pages["significance"] + "&page=99").content.decode()
    assert "Pairs 251–276 of 276" in beyond  # past the end: the last page


@pytest.mark.skipif(connection.vendor != "postgresql", reason="EXPLAIN of PostgreSQL")
def test_every_query_of_every_page_can_use_an_index_on_postgresql(organiser, larger):
    scans = {}
    for page, sql in requests(organiser, larger).items():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            for query in sql:
                if not query.lstrip().upper().startswith("SELECT"):
                    continue
                cursor.execute(f"EXPLAIN {query}")
                plan = "\n".join(row[0] for row in cursor.fetchall())
                for table in re.findall(r"Seq Scan on (\w+)", plan):
                    scans.setdefault(page, set()).add(table)
    assert scans == {}
