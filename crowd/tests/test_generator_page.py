"""The §3.2.1 example generator as a page and a background job (crowd.services.generator)."""

from __future__ import annotations

import numpy as np
import pytest
from django.core.exceptions import ValidationError
from numpy.testing import assert_allclose

from catalog.models import RelevanceJudgment
from crowd.models import Example
from crowd.selectors.generator import generator_coverage
from crowd.services.generator import generator_measure_names, generator_start
from evaluation.core.example_generator import (
    bin_of,
    generate_examples,
    list_score,
    reachable_bins,
)
from tests.helpers.crowd_fixtures import make_campaign
from work import job_runners
from work.models import Job

CG = "CG(scale=fine)@5"


# --- the core: bounds and progress ----------------------------------------------------


def test_the_reachable_bins_are_bounded_by_the_best_list_against_the_worst():
    # One query, Fine judgments 100, 100 and six 0s. CG_l@5 (eq. 3.3, ideal 5 × 100):
    # the best list holds both 100s, (100 + 100) / 500 = 0.4; the worst list is all 0s.
    one = {"q": {"a": 100, "b": 100, **{f"z{i}": 0 for i in range(6)}}}
    assert reachable_bins(one, [CG]) == {CG: 4}
    # A second query with five clips at 80 and five at 10: CG best 400/500 = 0.8, worst
    # 50/500 = 0.1, |Δλ| = 0.7 → bin 7. P@5 at ℓ = 60 (eq. 2.2): five of five ≥ 60 against
    # none, |ΔP| = 1 → the top bin 9 (the first query alone reaches 2/5 = 0.4).
    two = {**one, "r": {f"d{i}": 80 for i in range(5)} | {f"e{i}": 10 for i in range(5)}}
    assert reachable_bins(two, [CG, "P(rel=60,scale=fine)@5"]) == {
        CG: 7,
        "P(rel=60,scale=fine)@5": 9,
    }
    assert reachable_bins({"q": {"a": 1, "b": 2}}, [CG]) == {CG: -1}  # no query with k clips


def test_no_generated_pair_ever_lies_beyond_the_reachable_bound():
    rng = np.random.default_rng(5)
    judgments = {
        f"q{q}": {f"d{d}": float(rng.integers(0, 101)) for d in range(12)} for q in range(6)
    }
    measures = [CG, "RBP(form=user,scale=graded3)@5"]
    highest = reachable_bins(judgments, measures)
    report = generate_examples(judgments, measures, per_bin=3, seed=2)
    assert report.examples
    for example in report.examples:
        for m in measures:
            la, lb = example.scores[m]
            assert bin_of(la - lb) <= highest[m]


def test_progress_only_grows_and_ends_at_the_total_when_some_bins_are_chosen():
    rng = np.random.default_rng(9)
    judgments = {
        f"q{q}": {f"d{d}": float(rng.integers(0, 101)) for d in range(10)} for q in range(4)
    }
    calls = []
    report = generate_examples(judgments, [CG], per_bin=4, seed=1, bins=[0, 1, 2],
                               progress=lambda done, total, message: calls.append((done, total)))  # fmt: skip
    dones = [d for d, _ in calls]
    assert dones == sorted(dones) and calls[-1] == (12, 12) and {t for _, t in calls} == {12}
    assert report.bins == (0, 1, 2)
    assert all(report.counts[(CG, b)] >= 4 for b in (0, 1, 2))
    assert all(b in (0, 1, 2) for _, b, _ in report.unfilled)
    with pytest.raises(ValueError, match="bins must be among"):
        generate_examples(judgments, [CG], bins=[10])


# --- choosing measures ----------------------------------------------------------------


def test_families_and_scales_become_user_oriented_names_with_the_campaigns_cut_off():
    names = generator_measure_names(families=["CG", "RBP"], scales=["fine", "graded4"],
                                    gain="exp", k=5, others=["P(rel=60,scale=fine)@5", ""])  # fmt: skip
    assert names == [
        "CG(gain=exp,scale=fine)@5", "CG(gain=exp,scale=graded4)@5",
        "RBP(form=user,gain=exp,scale=fine)@5", "RBP(form=user,gain=exp,scale=graded4)@5",
        "P(rel=60,scale=fine)@5",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("others", "words"),
    [(["nDCG(scale=fine)@5"], "user-oriented"), (["CG(scale=fine)@10"], "use @5"),
     (["RBP(scale=fine)@5"], "add form=user"), (["Bogus@5"], "Bogus"), ([], "at least one measure")],
)  # fmt: skip
def test_a_measure_the_generator_cannot_use_is_refused_with_the_reason(others, words):
    with pytest.raises(ValidationError, match=words):
        generator_measure_names(families=[], scales=["fine"], gain="lin", k=5, others=others)


# --- the page and the job -------------------------------------------------------------


@pytest.mark.django_db
def test_coverage_counts_the_campaigns_examples_per_bin_and_marks_what_cannot_be_filled(
    crowd_collection,
):
    campaign = make_campaign(crowd_collection, traps=0)
    query = crowd_collection.queries.first()
    fine = [[90, 80, 70, 60, 50], [0, 0, 0, 0, 10]]  # CG: 0.7 and 0.02, |Δλ| = 0.68 → bin 6
    Example.objects.filter(campaign=campaign).update(scores={})
    Example.objects.filter(pk=campaign.examples.first().pk).update(
        scores={CG: [float(x) for x in list_score(CG, np.array(fine))]}
    )
    rows = generator_coverage(campaign=campaign, measures=[CG], bins=list(range(10)), per_bin=1)
    cells = rows[0].cells
    assert [c.examples for c in cells] == [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    assert cells[6].status == "filled" and cells[0].status == "short"
    assert rows[0].highest_bin == reachable_bins(
        {str(q.pk): {str(j.clip_id): j.fine for j in RelevanceJudgment.objects.filter(query=q)}
         for q in crowd_collection.queries.all()}, [CG])[CG]  # fmt: skip
    assert all(c.status == "unreachable" for c in cells[rows[0].highest_bin + 1 :])
    assert query is not None


@pytest.mark.django_db
def test_the_page_starts_the_generator_as_a_job_whose_result_says_what_each_cell_got(
    client, personas, crowd_collection, handed_over, django_capture_on_commit_callbacks
):
    campaign = make_campaign(crowd_collection, traps=0)
    client.force_login(personas.organiser)
    url = f"/campaigns/{campaign.pk}/generator/"
    page = client.get(url).content.decode()
    assert "Coverage now" in page and CG in page
    data = {"families": ["CG"], "scales": ["fine"], "gain": "lin", "bins": [0, 1, 2, 3],
            "per_bin": 3, "seed": 1}  # fmt: skip
    preview = client.post(url, {**data, "action": "preview"})
    assert preview.status_code == 200 and not Job.objects.exists()
    asked = client.post(url, {**data, "action": "run"}).content.decode()
    # 1 measure × 4 bins × 3 per bin: at most 12 examples; nothing started before "yes"
    assert "Add up to 12 examples to “Study”?" in asked and not Job.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(url, {**data, "action": "run", "confirm": "yes"})
    job = Job.objects.get()
    assert started["Location"] == f"/jobs/{job.pk}/"
    assert handed_over[-1] == ("judging.job_run", {"job_id": job.pk})
    before = campaign.examples.count()

    job_runners.job_run(job_id=job.pk)

    job.refresh_from_db()
    assert job.state == Job.DONE and job.done == job.total == 4 * 3
    added = campaign.examples.filter(source=Example.SOURCE_GENERATOR)
    assert job.result["added"] == added.count() == campaign.examples.count() - before > 0
    for example in added:  # λ stored agrees with the measure on the clips' judgments
        fine = {j.clip_id: j.fine for j in RelevanceJudgment.objects.filter(query=example.query)}
        lists = [
            [fine[i.clip_id] for i in example.items.filter(side=s).order_by("rank")] for s in "ab"
        ]
        assert_allclose(example.scores[CG], list_score(CG, np.array(lists)), atol=1e-6)
    counts = job.result["cells"][0]["counts"]
    assert all(counts[b] >= 3 for b in (0, 1, 2, 3))
    result = client.get(f"/jobs/{job.pk}/result/").content.decode()
    assert f"<strong>{added.count()}</strong> new example" in result


@pytest.mark.django_db
def test_without_fine_judgments_the_generator_says_what_to_do_first(personas, crowd_collection):
    campaign = make_campaign(crowd_collection, traps=0)
    RelevanceJudgment.objects.filter(query__collection=crowd_collection).update(fine=None)
    with pytest.raises(ValidationError, match="import judgments or run a relevance campaign"):
        generator_start(campaign=campaign, owner=personas.organiser, measures=[CG],
                        bins=[0], per_bin=1)  # fmt: skip
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_on_a_broad_only_collection_the_page_says_why_nothing_can_be_filled(
    client, personas, crowd_collection
):
    """Issue 31, item 6: every cell read "cannot be filled" with no reason."""
    campaign = make_campaign(crowd_collection, traps=0)
    client.force_login(personas.organiser)
    page = client.get(f"/campaigns/{campaign.pk}/generator/").content.decode()
    assert "This collection has no Fine judgments" not in page
    RelevanceJudgment.objects.filter(query__collection=crowd_collection).update(fine=None, broad=1)
    page = client.get(f"/campaigns/{campaign.pk}/generator/").content.decode()
    assert (
        "This collection has no Fine judgments (its judgments are on the Broad scale only)" in page
    )
    assert "add examples from the systems' lists" in page
