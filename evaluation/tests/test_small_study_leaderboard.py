"""A small study (3 MIREX 2011 systems, 2 judged queries) as a new organiser sees it (issue 24).

Every interval the leaderboard API gives lies within what its quantity can take, no
p-value is given for 2 queries (none could be below α = 0.05: the smallest two-sided
p-value of a sign or permutation test on 2 values is 2/2² = 0.5), every system shares the
letter "a", and the payloads say why in ``warnings``.
"""

import json
from urllib.parse import quote

import numpy as np
import pytest
from django.utils import timezone

from catalog.models import Collection
from evaluation.core.cli import main as cli_main
from evaluation.core.scores import ScoreMatrix
from evaluation.models import Leaderboard, ReliabilityStudy, ResultsConfig
from evaluation.selectors import collection_pool_filters
from evaluation.services import collection_results_compute
from evaluation.services.leaderboards import reliability_payload
from ingest.importers import mirex_import
from relevance.models import RelevanceCampaign
from tests.helpers.personas import make_user
from tests.helpers.small_study import MEASURE, SYSTEMS, small_study

pytestmark = pytest.mark.django_db


def test_every_interval_of_the_api_lies_within_its_bounds_and_no_p_value_is_given(tmp_path, client):
    owner, collection = small_study(tmp_path)
    client.force_login(owner)
    payload = client.get(
        f"/api/collections/{collection.pk}/leaderboard/?measure={quote(MEASURE)}"
    ).json()["payload"]
    assert payload["n_queries"] == 2 and len(payload["rows"]) == 3
    for row in payload["rows"]:
        assert 0 <= row["ci_low"] <= row["mean"] <= row["ci_high"] <= 1, row
        assert 0 <= row["psat_low"] <= row["psat_mean"] <= row["psat_high"] <= 1, row
        assert 0 <= row["pred_low"] <= row["pred_high"] <= 1, row
        assert row["ci_method"] == row["psat_method"] == "bootstrap-percentile"
        # 2 values: the percentile interval is their range (the resampled means are
        # the two values and their midpoint, bootstrap_mean_ci's docstring)
        scores = payload["scores"][payload["systems"].index(row["system"])]
        assert (row["ci_low"], row["ci_high"]) == (min(scores), max(scores))
        assert row["letters"] == "a"  # no test, so nothing tells systems apart
        assert row["judged"] == 1.0  # every top-5 document of MIREX 2011 is judged
    for pair in payload["pairs"]:
        assert -1 <= pair["ci_low"] <= pair["delta"] <= pair["ci_high"] <= 1, pair
        assert pair["p"] is None and pair["p_adjusted"] is None
        assert "p=" not in pair["report"] and "p<" not in pair["report"]
    codes = [w["code"] for w in payload["warnings"]]
    assert "too_few_queries" in codes
    assert "2 judged queries are too few" in payload["warnings"][0]["message"]


def test_the_pages_show_the_warnings_and_the_reliability_page_no_zero_coefficient(tmp_path, client):
    owner, collection = small_study(tmp_path)
    client.force_login(owner)
    base = f"/collections/{collection.pk}/results/"
    board = client.get(f"{base}leaderboard/?measure={quote(MEASURE)}").content.decode()
    assert 'data-code="too_few_queries"' in board and "bootstrap percentile" in board
    assert "± 1.5" not in board
    # The D-study of these 2 queries asks for more: the leaderboard says how many.
    study = ReliabilityStudy.objects.get(collection=collection, measure=MEASURE).payload
    needed = study["needed"]["erho2"]
    assert needed > 2 and study["warnings"] == []
    warning = next(w for w in payload_of(collection)["warnings"] if w["code"] != "too_few_queries")
    assert warning["code"] == "fewer_queries_than_needed"
    assert f"The D-study says {needed} queries are needed for Eρ² ≥ 0.95" in warning["message"]
    page = client.get(f"{base}reliability/?measure={quote(MEASURE)}").content.decode()
    assert "\n  .</p>" not in page  # the stray "." line when nothing reaches the target


def payload_of(collection) -> dict:
    return Leaderboard.objects.get(collection=collection, measure=MEASURE).payload


def test_a_reliability_study_without_system_variance_says_it_cannot_estimate(client):
    # Two systems with the same scores: MS_s = 0, so σ²_s = 0 (eq. 6.3) and Eρ² = Φ = 0
    # by eqs. 6.4–6.5 — which says nothing about the collection.
    matrix = ScoreMatrix(MEASURE, ("A", "B"), ("q1", "q2", "q3"), np.array([[0.1, 0.5, 0.9]] * 2))
    study = reliability_payload(matrix, target=0.95)
    assert study["erho2"] is None and study["phi"] is None
    assert study["needed"] == {"erho2": None, "phi": None}
    assert [w["code"] for w in study["warnings"]] == ["reliability_not_estimable"]
    owner = make_user("lonely-owner", "organiser")
    collection = Collection.objects.create(owner=owner, name="Flat")
    ReliabilityStudy.objects.create(
        collection=collection, measure=MEASURE, payload=study, computed_at=timezone.now()
    )
    client.force_login(owner)
    page = client.get(
        f"/collections/{collection.pk}/results/reliability/?measure={quote(MEASURE)}"
    ).content.decode()
    assert "Eρ² and Φ cannot be estimated" in page and "Eρ² = 0.0000" not in page
    assert 'data-code="reliability_not_estimable"' in page
    assert "\n  .</p>" not in page


def test_unjudged_documents_are_named_per_system_with_judged_at_k(tmp_path):
    _, collection = small_study(tmp_path, drop_judgment_of="207f1d", pool_filter="Similarity")
    payload = Leaderboard.objects.get(collection=collection, measure=MEASURE).payload
    judged = {row["system"]: row["judged"] for row in payload["rows"]}
    # one of 207f1d's 10 top-5 documents (2 queries × 5) lost its judgment: Judged@5 =
    # (4/5 + 5/5) / 2 = 0.9; the others may retrieve the same document for that query
    assert judged["207f1d"] == pytest.approx(0.9)
    warning = next(w for w in payload["warnings"] if w["code"] == "unjudged_documents")
    assert "207f1d 1 of 10 (Judged(scale=fine)@5 = 0.90)" in warning["message"]
    # the relevance campaign whose pool leaves clips by the query's artist out says so
    assert "The pool of “Similarity” leaves out clips by the query's artist" in warning["message"]
    assert payload["judged_label"] == "Judged(scale=fine)@5"


def test_the_empty_ranks_of_a_short_list_are_not_called_unjudged_documents(tmp_path):
    # Lists of 3 documents, every one judged: Judged@5 = 3/5 = 0.6 (ir_measures counts the
    # two empty ranks as not judged), but no document is unjudged, so no warning (the
    # warning said "4 of 10" for each system: issue 25's whole-study test met it).
    _, collection = small_study(tmp_path, depth=3)
    payload = Leaderboard.objects.get(collection=collection, measure=MEASURE).payload
    assert {row["system"]: row["judged"] for row in payload["rows"]} == pytest.approx(
        dict.fromkeys(SYSTEMS, 0.6)
    )
    assert "unjudged_documents" not in [w["code"] for w in payload["warnings"]]


def test_an_unjudged_document_of_a_short_list_is_counted_among_its_documents(tmp_path):
    # 207f1d's first document unjudged: 5 of its 6 documents (2 queries × 3) judged,
    # Judged@5 = (2/5 + 3/5) / 2 = 0.5; the warning counts 1 of the 6 documents.
    _, collection = small_study(tmp_path, depth=3, drop_judgment_of="207f1d")
    payload = Leaderboard.objects.get(collection=collection, measure=MEASURE).payload
    warning = next(w for w in payload["warnings"] if w["code"] == "unjudged_documents")
    assert "207f1d 1 of 6 (Judged(scale=fine)@5 = 0.50)" in warning["message"]


def test_the_command_line_prints_the_same_documents_as_the_results_pages(tmp_path, capsys):
    # One result object (evaluation.core.results) for both: the same keys and numbers.
    # Only what the command line cannot know differs: the judgment sources and Judged@k
    # (it is given scores, not the pool).
    _, collection = small_study(tmp_path)
    board = payload_of(collection)
    study = ReliabilityStudy.objects.get(collection=collection, measure=MEASURE).payload
    table = tmp_path / "scores.tsv"
    table.write_text(
        "".join(
            f"{system}\t{query}\t{score!r}\n"
            for system, scores in zip(board["systems"], board["scores"], strict=True)
            for query, score in zip(board["queries"], scores, strict=True)
        )
    )
    scores = ["--scores", str(table), "-m", MEASURE, "--format", "json"]
    assert cli_main(["leaderboard", *scores, "--test", "bootstrap", "--seed", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    own = {"judgment_sources", "judged_label"}
    assert set(printed) == set(board) - {"judgment_sources"}
    assert {k: v for k, v in printed.items() if k not in own | {"rows"}} == {
        k: v for k, v in board.items() if k not in own | {"rows"}
    }
    for cli_row, row in zip(printed["rows"], board["rows"], strict=True):
        assert cli_row == {**row, "judged": None}
    assert cli_main(["reliability", *scores]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == set(study) - {"judgment_sources"}
    assert printed["erho2"] == study["erho2"] and printed["needed"] == study["needed"]


@pytest.mark.parametrize("options", [{"drop_judgment_of": "207f1d"}, {"depth": 3}])
def test_the_command_line_on_files_gives_the_pages_judged_at_k_and_warning(
    tmp_path, capsys, options
):
    # Issue 33, D1: leaderboard and compare given QRELS and RUN files compute Judged@k and
    # what was retrieved as the pages do (one of 207f1d's documents unjudged: Judged@5 =
    # 0.9 and "1 of 10", see above; lists of 3: Judged@5 = 0.6 and no warning).
    _, collection = small_study(tmp_path, **options)
    board = payload_of(collection)
    folder = tmp_path
    files = [str(folder / "judgments.tsv"), str(folder / "runs.tsv"), "-m", MEASURE]
    assert cli_main(["leaderboard", *files, "--seed", "1", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["judged_label"] == board["judged_label"] == "Judged(scale=fine)@5"
    judged = {row["system"]: row["judged"] for row in board["rows"]}
    assert {row["system"]: row["judged"] for row in printed["rows"]} == judged
    assert printed["warnings"] == board["warnings"]
    assert cli_main(["compare", *files, "--test", "t", "--format", "json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert compared["judged"] == judged
    unjudged = [w for w in board["warnings"] if w["code"] == "unjudged_documents"]
    assert [w for w in compared["warnings"] if w["code"] == "unjudged_documents"] == unjudged
    assert bool(unjudged) == ("drop_judgment_of" in options)


def test_leaving_unjudged_clips_out_scores_the_judged_clips_below_them(tmp_path):
    """The results setting "Leave unjudged clips out of each list" (trec_eval -J; the
    core's -J is checked against pytrec_eval in evaluation/core/tests/test_against_pytrec_eval.py).

    By hand, CG(scale=fine)@5 = Σ fine / 100 over the top 5, / 5:
      q1: S1 = u1 (unjudged) a b c d e, S2 = a b c d e;  q2: S1 = a2..f2, S2 = u2 a2..e2
      fine: a 80, b 60, c 40, d 20, e 100; a2..f2 50 each.
      counted as not similar: S1 (0.40 + 0.50) / 2 = 0.45, S2 (0.60 + 0.40) / 2 = 0.50;
      left out:               S1 (0.60 + 0.50) / 2 = 0.55, S2 (0.60 + 0.50) / 2 = 0.55.
    Judged@5 still reads the whole lists: (4/5 + 5/5) / 2 = 0.9 for both.
    """
    fine = {"a": 80, "b": 60, "c": 40, "d": 20, "e": 100} | {f"{x}2": 50 for x in "abcdef"}
    lists = {
        ("S1", "q1"): "u1 a b c d e", ("S2", "q1"): "a b c d e",
        ("S1", "q2"): "a2 b2 c2 d2 e2 f2", ("S2", "q2"): "u2 a2 b2 c2 d2 e2",
    }  # fmt: skip
    runs = [f"{s}\t{q}\t{d}\n" for (s, q), docs in lists.items() for d in docs.split()]
    query_of = {d: "q2" if d.endswith("2") else "q1" for d in fine}
    judged = [f"{query_of[d]}\t{d}\t{v}\n" for d, v in fine.items()]
    (tmp_path / "runs.tsv").write_text("".join(runs))
    (tmp_path / "judgments.tsv").write_text("".join(judged))
    clips = ["q1", "q2", "u1", "u2", *fine]
    (tmp_path / "metadata.tsv").write_text("".join(f"{c}\tartist-{c}\tjazz\n" for c in clips))
    owner = make_user("judged-only-owner", "organiser")
    summary = mirex_import(owner=owner, folder=tmp_path, name="Judged only")
    collection = owner.collections.get(pk=summary.collection_id)

    def means(judged_only: bool) -> dict:
        ResultsConfig.objects.update_or_create(
            collection=collection,
            defaults={"measures": [MEASURE, "infAP"], "judged_only": judged_only},
        )
        collection_results_compute(target_id=collection.pk)
        payload = Leaderboard.objects.get(collection=collection, measure=MEASURE).payload
        assert payload["judged_only"] is judged_only
        assert {r["system"]: r["judged"] for r in payload["rows"]} == pytest.approx(
            {"S1": 0.9, "S2": 0.9}
        )
        assert Leaderboard.objects.filter(collection=collection, measure="infAP").exists()
        return {r["system"]: r["mean"] for r in payload["rows"]}

    assert means(False) == pytest.approx({"S1": 0.45, "S2": 0.50})
    assert means(True) == pytest.approx({"S1": 0.55, "S2": 0.55})


def test_the_same_artist_rule_is_named_only_where_clips_have_artists(crowd_collection):
    """Leaving out clips by the query's artist leaves nothing out when no query clip has an
    artist, so the unjudged-documents warning does not blame it (the whole-study test met
    that sentence on a collection without any artist)."""
    RelevanceCampaign.objects.create(
        collection=crowd_collection, name="Similarity", exclude_same_artist=True
    )
    crowd_collection.clips.update(artist="")
    assert collection_pool_filters(collection=crowd_collection) == []
    query = crowd_collection.queries.select_related("clip").first()
    query.clip.artist = "Ella"
    query.clip.save(update_fields=["artist"])
    assert collection_pool_filters(collection=crowd_collection) == ["Similarity"]
