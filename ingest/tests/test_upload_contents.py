"""What an upload reads from a runs or judgments file's content, whatever its name (issue
31, items 4 and 10): the field's names (``.trec``, ``.res``), a spreadsheet's commas and
header row, a file of another kind named for what it is, and judgments uploaded before the
runs. The jobs run as the Celery task runs them (:func:`tests.helpers.uploads.run_jobs`); the
counts are those of the small files written in each test, counted by hand.
"""

from __future__ import annotations

import re

import pytest

from catalog.models import RunEntry
from tests.helpers.importing import table_snapshot
from tests.helpers.uploads import WAV, counts, form_data, post, run_jobs
from work.models import Job

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dirs")]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("system.trec", b"c1 Q0 c2 1 0.9 S1\nc1 Q0 c3 2 0.5 S1\n"),  # the refused name
        ("input.res", b"c1\tQ0\tc2\t1\t0.9\tS1\nc1\tQ0\tc3\t2\t0.5\tS1\n"),
        # As a spreadsheet saves it: a header row, commas, a quoted field.
        ("runs.csv", b'query,Q0,docno,rank,score,system\nc1,Q0,c2,1,0.9,"S1"\nc1,Q0,c3,2,0.5,S1\n'),
    ],
)
def test_a_run_is_read_from_its_content_whatever_its_name_ends_with(
    organiser, personas, name, content
):
    """Issue 31, item 4: '.trec' files were refused by name, and a comma-separated
    '.csv' accepted by name and then refused by its content."""
    post(organiser, personas.collection, "runs", form_data(runs=[(name, content)]))
    (job,) = run_jobs()
    assert job.state == Job.DONE, job.error
    assert counts(job)["run entries created"] == 2
    entries = RunEntry.objects.order_by("rank").values_list("clip__external_id", "score")
    assert list(entries) == [("c2", 0.9), ("c3", 0.5)]  # by score, as trec_eval ranks


@pytest.mark.parametrize(
    ("kind", "name", "content", "said"),
    [
        ("runs", "runs.txt", b"c1 0 c2 2\n",
         "not a run: it looks like TREC qrels (judgments: qid iter docno rel), not a run "
         "(“c1 0 c2 2”): upload it as judgments"),
        ("judgments", "qrels.txt", b"c1 Q0 c2 1 0.9 S1\n",
         "not judgments: it looks like a TREC run (qid Q0 docid rank score tag), not "
         "judgments (“c1 Q0 c2 1 0.9 S1”): upload it as run files"),
        ("runs", "runs.csv", b"id,title,artist,genre\nc1,One,Ann,rock\n",
         "not a run: it looks like the header of a clip metadata file (id, title, artist, "
         "genre), not a run (“id title artist genre”): upload it with the audio clips"),
        ("judgments", "judgments.txt", WAV, "not text but a WAV audio file"),
    ],
)  # fmt: skip
def test_a_file_of_another_kind_says_what_it_looks_like_and_where_it_goes(
    organiser, personas, kind, name, content, said
):
    before = table_snapshot()
    post(organiser, personas.collection, kind, form_data(**{kind: (name, content)}))
    (job,) = run_jobs()
    assert (job.state, job.error_file, job.error_line) == (Job.FAILED, name, 1)
    assert job.error.startswith(said), job.error
    assert table_snapshot() == before


def test_judgments_before_runs_make_their_queries_on_the_page_and_name_the_next_step_if_not(
    organiser, personas
):
    """Issue 31, item 10: judgments uploaded before the runs failed with "unknown query".
    The page ticks "Make query ids that name clips into queries" (a query without runs
    changes no result: each run is evaluated on the queries it ranks); unticked, the
    error says that runs come first. A query id that names no clip is refused
    either way (a typo does not become a query)."""
    collection = personas.collection  # clips c1 c2 c3; only c1 is a query
    page = organiser.get(f"/collections/{collection.pk}/uploads/judgments/").content.decode()
    assert re.search(r'<input[^>]*name="create_missing_queries"[^>]*checked', page)
    assert "after the audio and the runs" in page

    post(organiser, collection, "judgments", form_data(judgments=("q.qrels", b"c2 0 c3 2\n")))
    (refused,) = run_jobs()
    assert refused.state == Job.FAILED
    assert "unknown query 'c2'" in refused.error and "runs come first" in refused.error

    ticked = {"create_missing_queries": "on"}
    post(
        organiser, collection, "judgments", form_data(ticked, judgments=("q.qrels", b"c2 0 c3 2\n"))
    )
    (job,) = run_jobs()
    assert job.state == Job.DONE and counts(job)["queries created"] == 1
    assert sorted(collection.queries.values_list("clip__external_id", flat=True)) == ["c1", "c2"]

    typo = ("t.qrels", b"c9 0 c3 2\n")
    post(organiser, collection, "judgments", form_data(ticked, judgments=typo))
    (typoed,) = run_jobs()
    assert typoed.state == Job.FAILED and "unknown query 'c9': not a clip" in typoed.error
    assert collection.queries.count() == 2
