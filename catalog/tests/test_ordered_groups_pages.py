"""A query's ordered groups on its page, and a source's groups downloaded from the page and
the API (issue 32)."""

from __future__ import annotations

import pytest

from catalog.models import JudgmentSource
from evaluation.core.ordered_groups import read_groups
from ingest.importers.groups import past_study_import
from tests.helpers.clients import client_for
from tests.helpers.ordered_groups import groups_collection_imported
from tests.helpers.plain_words import problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection(personas, tmp_path):
    return groups_collection_imported(owner_name=personas.organiser.username, folder=tmp_path)


def test_the_query_page_shows_the_groups_in_order_and_where_they_came_from(
    client, personas, collection, tmp_path
):
    (tmp_path / "study.csv").write_text(
        "query,doc_a,doc_b,answer,worker\nq2,d5,d4,A,w1\nq2,d4,d5,B,w2\n", encoding="utf-8"
    )
    past_study_import(collection=collection, path=tmp_path / "study.csv")
    client.force_login(personas.organiser)
    query = collection.queries.get(clip__external_id="q2")

    response = client.get(f"/collections/{collection.pk}/queries/{query.pk}/")

    page = response.content.decode()
    assert response.status_code == 200 and problems(page) == []
    experts = page.index("Ordered groups: experts")
    study = page.index("Ordered groups: study.csv")
    assert experts < study  # the official groups first
    assert "Imported from a file of ordered groups (“groups.txt”)" in page
    assert "the leaderboards rank the systems against them by average dynamic recall" in page
    assert "Built from the answers of a pairwise study (study.csv), where people said" in page
    assert "This source is a pilot: its groups are shown here but left out of the results." in page
    rows = page[experts:study]
    # q2: group 1 {d4}, group 2 {d1, d5}, in that order.
    assert (
        rows.index("<td>1</td><td>d4")
        < rows.index("<td>2</td><td>d1")
        < rows.index("<td>2</td><td>d5")
    )


def test_a_sources_groups_download_from_the_page_and_the_api_as_the_same_text(
    client, personas, collection
):
    source = JudgmentSource.objects.get(name="experts")
    client.force_login(personas.organiser)

    page = client.get(f"/collections/{collection.pk}/judgment-sources/{source.pk}/groups.txt")
    api = client_for(personas.organiser).get(
        f"/api/collections/{collection.pk}/judgment-sources/{source.pk}/groups/"
    )

    assert (
        page.status_code == 200
        and page["Content-Disposition"] == 'attachment; filename="groups-experts.txt"'
    )
    text = page.content.decode()
    assert read_groups(text.encode()) == {
        "experts": {"q1": [["d1", "d2"], ["d3"]], "q2": [["d4"], ["d1", "d5"]]}
    }
    assert api.status_code == 200
    assert api.json()["text"] == text and api.json()["groups"]["q2"] == [["d4"], ["d1", "d5"]]
    collection_page = client.get(f"/collections/{collection.pk}/").content.decode()
    assert "6 clips in ordered groups" in collection_page
    assert "Download the groups of “experts”" in collection_page


def test_a_source_of_judgments_has_no_groups_to_download(client, personas, collection):
    source = JudgmentSource.objects.create(collection=collection, name="qrels", kind="import")
    client.force_login(personas.organiser)
    assert (
        client.get(
            f"/collections/{collection.pk}/judgment-sources/{source.pk}/groups.txt"
        ).status_code
        == 404
    )


def test_a_source_of_groups_is_deleted_only_by_choice_and_comes_back_whole(personas, collection):
    from django.core.exceptions import ValidationError

    from catalog.models import OrderedGroupEntry
    from catalog.services.trash import trash_preview, trash_put, trash_restore

    source = JudgmentSource.objects.get(name="experts")
    before = list(OrderedGroupEntry.objects.order_by("pk").values_list())
    assert trash_preview(root=source, kind="source").counts["clips in ordered groups"] == 6
    with pytest.raises(ValidationError, match="6 judgments or answers with it"):
        trash_put(root=source, kind="source", collection=collection, by=personas.organiser)

    item = trash_put(root=source, kind="source", collection=collection, by=personas.organiser,
                     with_answers=True)  # fmt: skip
    assert not OrderedGroupEntry.objects.exists()
    trash_restore(item=item)

    assert list(OrderedGroupEntry.objects.order_by("pk").values_list()) == before
