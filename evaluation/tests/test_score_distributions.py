"""The leaderboard's "Score distributions" panel (issue 33, thesis §4.2.2): which
distribution fits this collection's scores best, the same figures as ``leaderboard`` on
the command line, and nothing for a collection too small to hold queries out."""

from __future__ import annotations

import json
from urllib.parse import quote

import numpy as np
import pytest

from evaluation.core.cli import main as cli_main
from evaluation.core.goodness_of_fit import LEADERBOARD_TRIALS, fit_study
from evaluation.core.scores import ScoreMatrix
from evaluation.models import Leaderboard, ResultsConfig
from evaluation.services import collection_results_compute
from ingest.importers import mirex_import
from tests.helpers.personas import make_user
from tests.helpers.small_study import four_systems_folder

pytestmark = pytest.mark.django_db

MEASURE = "CG(scale=fine)@5"


def collection_of(tmp_path, queries):
    owner = make_user(f"fits-{queries}", "organiser")
    summary = mirex_import(
        owner=owner, folder=four_systems_folder(tmp_path, queries=queries), name="Fits"
    )
    collection = owner.collections.get(pk=summary.collection_id)
    ResultsConfig.objects.create(collection=collection, measures=[MEASURE], test="t", seed=3)
    collection_results_compute(target_id=collection.pk)
    return owner, collection


def test_the_panel_names_the_best_fit_as_the_command_line_does(tmp_path, client, capsys):
    owner, collection = collection_of(tmp_path, 12)
    board = Leaderboard.objects.get(collection=collection, measure=MEASURE)
    fits = board.payload["score_distributions"]
    # the study itself: fitted on 6 (half) of the 12 queries, the rest held out
    matrix_rows = board.payload["scores"]
    assert [s["fitted"] for s in fits["sizes"]] == [6]
    assert fits["trials"] == LEADERBOARD_TRIALS and fits["n_systems"] == len(matrix_rows)
    args = [str(tmp_path / "judgments.tsv"), str(tmp_path / "runs.tsv"), "-m", MEASURE]
    assert cli_main(["leaderboard", *args, "--test", "t", "--seed", "3", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["score_distributions"] == fits
    client.force_login(owner)
    text = client.get(
        f"/collections/{collection.pk}/results/leaderboard/?measure={quote(MEASURE)}"
    ).content.decode()
    best = fits["sizes"][0]["best"]
    assert "Score distributions" in text and fits["report"] in text.replace("&#x27;", "'")
    assert f"<strong>{fits['sizes'][0]['omega'][best]:.4f}</strong>" in text


def test_the_study_is_the_cores_on_the_stored_scores(tmp_path):
    _, collection = collection_of(tmp_path, 12)
    payload = Leaderboard.objects.get(collection=collection, measure=MEASURE).payload
    matrix = ScoreMatrix(
        MEASURE, tuple(payload["systems"]), tuple(payload["queries"]), np.array(payload["scores"])
    )
    # the leaderboard ranks its systems best first; the study averages over systems, so
    # their order does not change it beyond rounding
    want = fit_study(matrix, trials=LEADERBOARD_TRIALS, seed=3).to_dict()
    got = payload["score_distributions"]
    for a, b in zip(got["sizes"], want["sizes"], strict=True):
        assert a["omega"] == pytest.approx(b["omega"], rel=1e-12)


def test_a_collection_too_small_to_hold_queries_out_has_no_panel(tmp_path, client):
    owner, collection = collection_of(tmp_path, 3)
    board = Leaderboard.objects.get(collection=collection, measure=MEASURE)
    assert board.payload["score_distributions"] is None
    client.force_login(owner)
    text = client.get(
        f"/collections/{collection.pk}/results/leaderboard/?measure={quote(MEASURE)}"
    ).content.decode()
    assert "Score distributions" not in text
