"""A query's page: what each system returned, playable, with its judgments (issue 25:
there was no way to listen to a system's list for a query)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import RelevanceJudgment, RunEntry

pytestmark = pytest.mark.django_db


def test_each_systems_list_is_shown_with_the_judgments_of_its_clips(
    client, personas, crowd_collection
):
    query = crowd_collection.queries.select_related("clip").order_by("pk").first()
    client.force_login(personas.organiser)
    collection_page = client.get(
        f"/collections/{crowd_collection.pk}/?show=queries"
    ).content.decode()
    url = f"/collections/{crowd_collection.pk}/queries/{query.pk}/"
    assert f'href="{url}"' in collection_page
    with CaptureQueriesContext(connection) as captured:
        page = client.get(url).content.decode()
    for system in crowd_collection.systems.all():
        assert f">{system.name}</h2>" in page
        for entry in RunEntry.objects.filter(system=system, query=query).select_related("clip"):
            fine = RelevanceJudgment.objects.get(
                query=query, clip=entry.clip
            ).fine  # one judgment each
            assert f"<td>{entry.rank}</td><td>{entry.clip.external_id} {entry.clip.title}" in page
            assert f"<td>{fine}</td>" in page
    # session, user, collection (the rule), query, the run entries, their judgments, the
    # ordered groups of the query (issue 32)
    assert len(captured) <= 8, [q["sql"][:80] for q in captured]


def test_another_organiser_gets_a_404(client, personas, crowd_collection):
    query = crowd_collection.queries.first()
    client.force_login(personas.other_organiser)
    assert client.get(f"/collections/{crowd_collection.pk}/queries/{query.pk}/").status_code == 404
