"""The reliability page's nested G-study (issue 33, thesis §6.4): when queries were judged
by several assessors each, every reliability study gets the G-study of systems ×
(assessors nested in queries), the same document as ``reliability --nested`` on the
command line, shown on the page with its plot; a pilot source's assessors do not count."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from catalog.models import JudgmentSource, RelevanceJudgment
from evaluation.core.cli import main as cli_main
from evaluation.models import ReliabilityStudy, ResultsConfig
from evaluation.services import collection_results_compute
from ingest.importers import mirex_import
from tests.helpers.personas import make_user
from tests.helpers.small_study import four_systems_folder

pytestmark = pytest.mark.django_db

MEASURE = "CG(scale=fine)@5"


def three_assessors(collection, owner, *, status=JudgmentSource.OFFICIAL):
    """Every pooled (query, clip) of the first 5 queries judged by 3 assessors, whose Fine
    scores differ by an amount of their own; the 6th query by one assessor only."""
    source = JudgmentSource.objects.create(
        collection=collection, name="Three assessors", kind=JudgmentSource.API, status=status
    )
    people = [make_user(f"judge{h}", "assessor", owner=owner) for h in range(3)]
    lines = []
    queries = list(collection.queries.order_by("clip__external_id"))
    for q, query in enumerate(queries[:6]):
        clips = {e.clip for e in query.run_entries.select_related("clip")}
        for h, person in enumerate(people if q < 5 else people[:1]):
            for clip in sorted(clips, key=lambda c: c.external_id):
                fine = (int(clip.external_id, 16) * (h + 3) + 7 * q) % 101
                RelevanceJudgment.objects.create(
                    query=query, clip=clip, assessor=person, source=source, fine=fine
                )
                lines.append(f"{query.clip.external_id}\t{person.pk}\t{clip.external_id}\t{fine}\n")
    return "".join(lines)


@pytest.fixture
def imported(tmp_path):
    owner = make_user("nested-owner", "organiser")
    summary = mirex_import(
        owner=owner, folder=four_systems_folder(tmp_path, queries=8), name="Nested"
    )
    collection = owner.collections.get(pk=summary.collection_id)
    ResultsConfig.objects.create(collection=collection, measures=[MEASURE], test="t")
    return owner, collection, tmp_path


def test_the_nested_study_is_the_command_lines_and_the_page_shows_it(imported, client, capsys):
    owner, collection, files = imported
    lines = three_assessors(collection, owner)
    collection_results_compute(target_id=collection.pk)
    nested = ReliabilityStudy.objects.get(collection=collection, measure=MEASURE).payload["nested"]
    assert (nested["n_systems"], nested["n_queries"], nested["n_assessors"]) == (4, 5, 3)
    assert list(nested["left_out"].values()) == [1]
    judgments = files / "assessors.tsv"
    judgments.write_text(lines)
    args = ["reliability", "--nested", str(judgments), str(files / "runs.tsv"), "-m", MEASURE]
    assert cli_main([*args, "--queries", "1,2,3,4,5,6,7,8,9,10", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == nested
    client.force_login(owner)
    page = client.get(
        f"/collections/{collection.pk}/results/reliability/?measure={quote(MEASURE)}"
    ).content.decode()
    assert "Several assessors per query" in page
    assert (
        "Assessors within queries (σ<sup>2</sup><sub>h:q</sub>)" in page
        and 'data-plot="nested"' in page
    )
    assert "Left out: 1 query with fewer than 3 assessors." in page


def test_a_pilot_sources_assessors_do_not_make_a_nested_study(imported):
    owner, collection, _ = imported
    three_assessors(collection, owner, status=JudgmentSource.PILOT)
    collection_results_compute(target_id=collection.pk)
    payload = ReliabilityStudy.objects.get(collection=collection, measure=MEASURE).payload
    assert "nested" not in payload
