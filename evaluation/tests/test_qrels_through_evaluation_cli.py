"""The organiser's qrels export is read by ``python -m evaluation.core QRELS RUN -m P@5``.

The ``evaluate`` sub-command comes from the measures branch; until it is merged this test
skips and says so.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.models import RunEntry
from relevance.services.campaigns import assignment_next, judgment_save
from tests.helpers.personas import PASSWORD
from tests.helpers.relevance_data import make_campaign

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        importlib.util.find_spec("evaluation.core.cli.evaluate") is None,
        reason="evaluation.core's evaluate command (measures branch) is not merged yet",
    ),
]


@pytest.mark.parametrize("scale", ["broad", "fine"])
def test_exported_qrels_evaluate_a_run_without_error(client, personas, tmp_path, scale):
    campaign = make_campaign(personas)
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    for index, entry in enumerate(campaign.pool.filter(query=work.query)):
        judgment_save(assignment=work, assessor=personas.assessor, pool_entry=entry,
                      broad=index % 3, fine=20 * index)  # fmt: skip
    client.login(username=personas.organiser.username, password=PASSWORD)
    response = client.get(f"/relevance-campaigns/{campaign.pk}/qrels?scale={scale}&policy=mean")
    qrels = tmp_path / f"{scale}.qrels"
    qrels.write_bytes(response.content)
    run = tmp_path / "sysAlpha.run"
    entries = RunEntry.objects.filter(
        system__collection=campaign.collection, system__name="sysAlpha"
    )
    run.write_text(
        "".join(
            f"{e.query.external_id} Q0 {e.clip.external_id} {e.rank} {e.score} sysAlpha\n"
            for e in entries.select_related("query__clip", "clip").order_by("query", "rank")
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "evaluation.core", str(qrels), str(run), "-m", "P@5"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "P@5" in result.stdout
