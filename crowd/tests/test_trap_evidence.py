"""Trap questions set with evidence (issue 25, item 4): the trap page plays the query and
every clip, shows each clip's judgments and each list's λ, and previews how many of the
answers given would miss the trap with the accepted answers chosen."""

from __future__ import annotations

import pytest
from django.db.models import Avg

from catalog.models import RelevanceJudgment
from tests.helpers.crowd_fixtures import make_campaign
from tests.helpers.crowd_http import Browser
from tests.helpers.mappings import judged_on_broad_only

pytestmark = pytest.mark.django_db


def test_the_trap_page_shows_judgments_lambda_and_who_would_miss_it(
    client, personas, crowd_collection
):
    campaign = make_campaign(crowd_collection, traps=0, max_answers_per_worker=1)
    for n, choice in enumerate(["a_better", "a_better", "both_good"]):  # as shown
        worker = Browser(campaign)
        worker.start(f"worker=w{n}")
        assert worker.answer(choice).status_code == 302
    example = campaign.examples.filter(tasks__answer__isnull=False).order_by("pk").first()
    answered = example.tasks.filter(answer__isnull=False).count()
    assert answered >= 1
    client.force_login(personas.organiser)
    url = f"/campaigns/{campaign.pk}/examples/{example.pk}/trap/"
    page = client.get(url).content.decode()

    # λ = CG(scale=fine)@5 = the mean of Fine/100 over the list (checked by hand:
    # list_score on [100, 50, 0, 0, 0] gives 0.3), from the official judgments
    for side in ("a", "b"):
        fines = []
        for item in example.items.filter(side=side).order_by("rank"):
            fine = RelevanceJudgment.objects.filter(query=example.query, clip=item.clip).aggregate(
                f=Avg("fine"))["f"]  # fmt: skip
            fines.append(fine)
            assert f"<td>{fine:.0f}</td>" in page
        assert f"List {side.upper()}: λ = {sum(fines) / 500:.3f}" in page
    assert 'aria-label="Query clip"' in page or not example.query.clip.has_audio

    if answered:
        preview = client.post(url, {"accepted_answers": ["both_good"], "pool": "work",
                                    "explanation": "", "preview": "1"}).content.decode()  # fmt: skip
        missed = (
            example.tasks.exclude(answer__outcome="both_good").filter(answer__isnull=False).count()
        )
        answers = "answer" if answered == 1 else "answers"  # issue 31: never "of 1 answers"
        assert f"<strong>{missed} of {answered}</strong> {answers} would miss this trap" in preview
        assert not hasattr(example, "trap") or not example.__class__.objects.get(pk=example.pk).trap


def test_on_a_broad_only_collection_the_trap_page_gives_lambda_on_the_broad_scale(
    client, personas, crowd_collection
):
    """Issue 31: a collection of TREC qrels has Broad levels only; the trap page gave no λ
    and said "on the official Fine judgments". λ is CG(scale=broad)@5 there: the mean of
    Broad/2 over the list (CG_l@k, thesis eq. 3.3, with the Broad scale on [0, 1] as
    §7.2 puts it; e.g. levels 2, 1, 0, 0, 0 give (1 + 0.5) / 5 = 0.3)."""
    judged_on_broad_only(crowd_collection)
    campaign = make_campaign(crowd_collection, traps=0)
    example = campaign.examples.order_by("pk").first()
    client.force_login(personas.organiser)
    page = client.get(f"/campaigns/{campaign.pk}/examples/{example.pk}/trap/").content.decode()
    assert "CG(scale=broad)@5 of each list on the official Broad judgments" in page
    for side in ("a", "b"):
        levels = [
            RelevanceJudgment.objects.filter(query=example.query, clip=item.clip).aggregate(
                b=Avg("broad")
            )["b"]
            for item in example.items.filter(side=side).order_by("rank")
        ]
        assert f"List {side.upper()}: λ = {sum(levels) / 10:.3f}" in page
