"""Judgment sources: imports never silently replace each other, and only official ones count.

Issue 11: judgment imports were keyed by file name (``import:<file name>``), so
``A/extra.tsv`` then ``B/extra.tsv`` overwrote each other, and a 3-field file imported
after a 4-field one with the same name erased Broad. Issue 13, item 6: a pilot
campaign's judgments flowed into the leaderboards with no way to leave them out.
"""

import csv
import io

import pytest
from django.core.management import call_command
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import JudgmentSource, RelevanceJudgment, RunEntry
from catalog.services.sharing import collection_share
from catalog.services.sources import judgment_source_set_status
from evaluation.models import EstimatedLeaderboard, Leaderboard
from evaluation.selectors import collection_judgment_sources, collection_qrels_records
from evaluation.services import collection_results_compute
from ingest.importers import ImportFailed, judgments_import
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.importing import collection_make, table_snapshot, write_lines
from tests.helpers.personas import PASSWORD
from tests.helpers.sources import source_for
from work.handoff import COLLECTION_CHANGED_TASK

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3", queries="q1 q2")


def grades() -> dict[tuple[str, str, str], tuple]:
    return {
        (j.source.name, j.query.clip.external_id, j.clip.external_id): (j.broad, j.fine)
        for j in RelevanceJudgment.objects.select_related("source", "query__clip", "clip")
    }


def test_two_files_called_alike_in_two_folders_never_overwrite_each_other(collection, tmp_path):
    (tmp_path / "A").mkdir()
    (tmp_path / "B").mkdir()
    a = write_lines(tmp_path / "A", "extra.tsv", "q1 d1 80 2", "q1 d2 10 0")
    b = write_lines(tmp_path / "B", "extra.tsv", "q1 d1 20 0", "q2 d3 50 1")
    judgments_import(collection=collection, path=a)
    before = table_snapshot()

    with pytest.raises(ImportFailed) as refused:
        judgments_import(collection=collection, path=b)

    assert str(refused.value) == (
        "extra.tsv: 1 judgment(s) already in source 'extra.tsv' would change "
        "(line 1: q1 d1 Broad 2 → 0, Fine 80 → 20): give replace (--replace) to change them, "
        "or another source name to keep both"
    )
    assert table_snapshot() == before  # not even q2 d3, which was new
    judgments_import(collection=collection, path=b, source="B/extra.tsv")
    assert grades() == {
        ("extra.tsv", "q1", "d1"): (2, 80),
        ("extra.tsv", "q1", "d2"): (0, 10),
        ("B/extra.tsv", "q1", "d1"): (0, 20),
        ("B/extra.tsv", "q2", "d3"): (1, 50),
    }


def test_a_three_field_file_after_a_four_field_one_does_not_erase_broad(collection, tmp_path):
    judgments_import(collection=collection, path=write_lines(tmp_path, "j.tsv", "q1 d1 80 2"))

    with pytest.raises(ImportFailed, match=r"1 of them erasing a score .*q1 d1 Broad 2 → none"):
        judgments_import(collection=collection, path=write_lines(tmp_path, "j.tsv", "q1 d1 80"))
    assert grades() == {("j.tsv", "q1", "d1"): (2, 80)}

    summary = judgments_import(
        collection=collection, path=write_lines(tmp_path, "j.tsv", "q1 d1 80"), replace=True
    )  # explicitly asked: the Broad goes
    assert (summary.judgments_updated, grades()) == (1, {("j.tsv", "q1", "d1"): (None, 80)})


def test_a_dry_run_reports_what_an_import_would_do_and_writes_nothing(collection, tmp_path):
    judgments_import(
        collection=collection, path=write_lines(tmp_path, "j.tsv", "q1 d1 80", "q1 d2 5")
    )
    before = table_snapshot()
    path = write_lines(tmp_path, "j.tsv", "q1 d1 60", "q1 d3 70", "q2 new 1")

    summary = judgments_import(
        collection=collection, path=path, dry_run=True, create_missing_clips=True
    )

    assert table_snapshot() == before
    assert summary.dry_run and summary.clips_created == 1
    assert (summary.judgments_created, summary.judgments_updated, summary.judgments_kept) == (
        2,
        1,
        1,
    )
    assert summary.changes == ("line 1: q1 d1 Fine 80 → 60",)


def test_the_command_says_what_it_would_change_and_replaces_only_when_asked(
    collection, tmp_path, capsys
):
    path = write_lines(tmp_path, "j.tsv", "q1 d1 80")
    call_command("import_judgments", str(collection.pk), str(path))
    path = write_lines(tmp_path, "j.tsv", "q1 d1 60", "q1 d2 30")
    call_command("import_judgments", str(collection.pk), str(path), "--dry-run")
    out = capsys.readouterr().out
    assert "Would read 2 judgments (fine format, fine scale) into source 'j.tsv'" in out
    assert "line 1: q1 d1 Fine 80 → 60" in out and "Nothing was written (--dry-run)." in out
    assert grades() == {("j.tsv", "q1", "d1"): (None, 80)}
    call_command("import_judgments", str(collection.pk), str(path), "--replace")
    assert grades() == {("j.tsv", "q1", "d1"): (None, 60), ("j.tsv", "q1", "d2"): (None, 30)}


def test_an_import_cannot_write_into_a_relevance_campaigns_source(collection, tmp_path):
    campaign = relevance_campaign_create(collection=collection, name="Panel")
    path = write_lines(tmp_path, "j.tsv", "q1 d1 80")
    with pytest.raises(ImportFailed, match="holds the judgments of a relevance campaign"):
        judgments_import(collection=collection, path=path, source=campaign.source.name)
    assert not RelevanceJudgment.objects.exists()


# --- which judgments count ------------------------------------------------------------


def judge(collection, source, query, clip, fine, broad=None):
    return RelevanceJudgment.objects.create(
        query=collection.queries.get(clip__external_id=query),
        clip=collection.clips.get(external_id=clip),
        source=source,
        fine=fine,
        broad=broad,
    )


def test_pilot_judgments_are_left_out_before_consolidating(collection):
    official, pilot = source_for(collection, "official"), source_for(collection, "pilot")
    judge(collection, official, "q1", "d1", 40, broad=1)
    judge(collection, pilot, "q1", "d1", 90, broad=2)  # patterned pilot judgments
    judge(collection, pilot, "q1", "d2", 100, broad=2)
    both = {
        (r.query, r.clip): (r.broad, r.fine)
        for r in collection_qrels_records(collection=collection)
    }
    assert both[("q1", "d1")][1] == 65  # the mean of 40 and 90, while both count
    assert ("q1", "d2") in both

    judgment_source_set_status(source=pilot, status=JudgmentSource.PILOT)

    records = collection_qrels_records(collection=collection)
    # Only the official judgment is left: Fine 40, Broad 1 (one judgment, nothing to average).
    assert [(r.query, r.clip, r.broad, r.fine) for r in records] == [("q1", "d1", 1, 40)]
    assert collection_judgment_sources(collection=collection) == {
        "used": ["official"], "left_out": ["pilot"], "consolidation": "mean",
    }  # fmt: skip


def test_toggling_sources_in_one_transaction_asks_for_one_recompute(
    collection, handed_over, django_capture_on_commit_callbacks
):
    sources = [source_for(collection, name) for name in ("a", "b", "c")]
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for source in sources:
            assert judgment_source_set_status(source=source, status="pilot")
        assert not judgment_source_set_status(source=sources[0], status="pilot")  # no change
    assert handed_over == [(COLLECTION_CHANGED_TASK, {"collection_id": collection.pk})]
    with django_capture_on_commit_callbacks(execute=True):
        assert not judgment_source_set_status(source=sources[1], status="pilot")
    assert len(handed_over) == 1  # nothing changed: nothing to recompute


def test_leaderboards_and_their_exports_say_which_sources_they_used(personas, client):
    collection = collection_make(name="Two queries", clips="a b", queries="q1 q2",
                                 owner_name=personas.organiser.username)  # fmt: skip
    for name, ranking in (("S1", "ab"), ("S2", "ba")):
        system = collection.systems.create(name=name)
        for query in collection.queries.all():
            for rank, clip in enumerate(ranking, start=1):
                RunEntry.objects.create(
                    system=system,
                    query=query,
                    rank=rank,
                    clip=collection.clips.get(external_id=clip),
                )
    official, pilot = source_for(collection, "MIREX"), source_for(collection, "Pilot run")
    judge(collection, official, "q1", "a", 80)
    judge(collection, official, "q2", "a", 40)
    judge(collection, pilot, "q1", "b", 100)
    judge(collection, pilot, "q2", "b", 100)
    judgment_source_set_status(source=pilot, status="pilot")

    collection_results_compute(target_id=collection.pk)

    board = Leaderboard.objects.get(collection=collection, measure="CG(scale=fine)@5")
    assert board.payload["judgment_sources"] == {
        "used": ["MIREX"], "left_out": ["Pilot run"], "consolidation": "mean",
    }  # fmt: skip
    # Only a counts (b is unjudged once the pilot is out). CG@5 with linear gains r/100 (thesis
    # §2.5): q1 (0.8 + 0)/5 = 0.16, q2 (0.4 + 0)/5 = 0.08, mean 0.12 for both systems; with
    # the pilot it would be (0.8 + 1)/5 and (0.4 + 1)/5, mean 0.32.
    assert [row["mean"] for row in board.payload["rows"]] == pytest.approx([0.12, 0.12])
    client.login(username=personas.organiser.username, password=PASSWORD)
    url = f"/collections/{collection.pk}/results/leaderboard"
    measure = "CG(scale%3Dfine)%405"
    page = client.get(f"{url}/?measure={measure}").content.decode()
    assert "Judgments from “MIREX”" in page and "left out (pilot): “Pilot run”" in page
    exported = client.get(f"{url}.csv?measure={measure}").content.decode()
    assert {row["judgment_sources"] for row in csv.DictReader(io.StringIO(exported))} == {"MIREX"}
    # b is unjudged once the pilot is out: the estimated leaderboard (thesis §8.1) is
    # computed from the same sources and says so too.
    estimated = EstimatedLeaderboard.objects.get(collection=collection, measure="CG(scale=fine)@5")
    assert estimated.payload["judgment_sources"] == board.payload["judgment_sources"]
    page = client.get(f"/collections/{collection.pk}/results/estimated/?measure={measure}")
    assert "left out (pilot): “Pilot run”" in page.content.decode()


def test_the_organiser_toggles_a_source_on_the_collection_page(personas, client, handed_over):
    collection = personas.collection
    source = source_for(collection, "Pilot run")
    judge(collection, source, "c1", "c2", 10)
    client.login(username=personas.organiser.username, password=PASSWORD)
    page = client.get(f"/collections/{collection.pk}/").content.decode()
    assert 'id="judgment-sources"' in page and "Pilot run" in page and "official: counts" in page
    assert "consolidated into one level per scale by the policy “mean”" in page

    response = client.post(
        f"/collections/{collection.pk}/judgment-sources/{source.pk}/status/",
        {"status": "pilot"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == f"/collections/{collection.pk}/#judgment-sources"
    assert "“Pilot run” is now left out of results" in response.content.decode()
    source.refresh_from_db()
    assert source.status == "pilot"


def test_another_organiser_cannot_see_or_toggle_the_sources(personas, client):
    source = source_for(personas.collection, "Pilot run")
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    url = f"/collections/{personas.collection.pk}/judgment-sources/{source.pk}/status/"
    assert client.post(url, {"status": "pilot"}).status_code == 404
    api = APIClient()
    api.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=personas.other_organiser).key}"
    )
    base = f"/api/collections/{personas.collection.pk}/judgment-sources/"
    assert api.get(base).status_code == 404
    assert (
        api.post(f"{base}{source.pk}/status/", {"status": "pilot"}, format="json").status_code
        == 404
    )
    source.refresh_from_db()
    assert source.status == "official"


def test_the_api_lists_sources_and_toggles_one(personas):
    collection = personas.collection
    source = source_for(collection, "Pilot run")
    judge(collection, source, "c1", "c2", 10)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=personas.organiser).key}")
    base = f"/api/collections/{collection.pk}/judgment-sources/"
    listed = api.get(base).json()
    assert "“mean”" in listed["consolidation"]
    assert [(s["name"], s["status"], s["counts"], s["judgments"]) for s in listed["sources"]] == [
        ("Pilot run", "official", True, 1)
    ]
    response = api.post(f"{base}{source.pk}/status/", {"status": "pilot"}, format="json")
    assert response.status_code == 200
    assert response.json()["changed"] is True
    assert response.json()["source"]["counts"] is False
    bad = api.post(f"{base}{source.pk}/status/", {"status": "maybe"}, format="json")
    assert bad.status_code == 400


def test_a_read_only_co_organiser_sees_the_sources_but_cannot_change_them(personas, client):
    collection = personas.collection
    source = source_for(collection, "Pilot run")
    judge(collection, source, "c1", "c2", 10)
    collection_share(collection=collection, username=personas.other_organiser.username,
                     access="read")  # fmt: skip
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    page = client.get(f"/collections/{collection.pk}/").content.decode()
    assert "Pilot run" in page and "official: counts" in page
    assert "Leave “Pilot run” out of results" not in page  # no button offered...
    url = f"/collections/{collection.pk}/judgment-sources/{source.pk}/status/"
    assert client.post(url, {"status": "pilot"}).status_code == 403  # ...and none accepted
    source.refresh_from_db()
    assert source.status == "official"
