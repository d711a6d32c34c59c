"""Every importer takes an open stream (an upload, a file in storage) as well as a path,
reports its progress, and states and enforces its limits instead of holding a whole file.

The organiser's browser uploads and background jobs call the same functions as the
command line: ``<what>_import(*, collection, stream=…, name=…, progress=…)``.
"""

import io

import pytest

from catalog.models import Clip, RelevanceJudgment, RunEntry
from common.files.inputs import MAX_LINE_BYTES
from ingest.importers import ImportFailed, judgments_import, metadata_import, runs_import
from ingest.importers import judgments as judgments_importer
from ingest.importers import runs as runs_importer
from pastanswers.importers import answers as answers_importer
from tests.helpers.importing import collection_make, table_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3", queries="q1 q2")


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, fraction, message):
        self.calls.append((fraction, message))


def test_runs_import_from_a_stream_names_it_and_reports_progress(collection):
    progress = Recorder()
    stream = io.BytesIO(b"S1\tq1\td1\nS1\tq1\td2\nS2\tq2\td3\n")
    summary = runs_import(
        collection=collection, stream=stream, name="upload.tsv", progress=progress
    )
    assert summary.run_entries_created == 3 and RunEntry.objects.count() == 3
    assert progress.calls[0] == (1.0, "read")  # the whole stream was read
    assert progress.calls[-1] == (None, "writing")
    with pytest.raises(ImportFailed, match=r"^upload\.tsv, line 1: not a run: found 2 fields"):
        runs_import(collection=collection, stream=io.BytesIO(b"S1 q1\n"), name="upload.tsv")


def test_judgments_and_metadata_import_from_a_stream(collection):
    summary = judgments_import(
        collection=collection, stream=io.BytesIO(b"q1 d1 80\n"), name="qrels-upload.txt"
    )
    assert summary.source == "qrels-upload.txt"
    assert RelevanceJudgment.objects.get().source.name == "qrels-upload.txt"
    metadata_import(collection=collection, stream=io.BytesIO(b"d1\tABBA\tpop\n"), name="m.tsv")
    assert Clip.objects.get(external_id="d1").artist == "ABBA"


def test_a_file_over_the_line_limit_stops_early_with_a_clear_message(collection, monkeypatch):
    monkeypatch.setattr(runs_importer, "MAX_LINES", 2)
    monkeypatch.setattr(judgments_importer, "MAX_LINES", 2)
    before = table_snapshot()
    lines = b"".join(b"S1\tq1\td%d\n" % i for i in range(1, 4))
    with pytest.raises(ImportFailed) as error:
        runs_import(collection=collection, stream=io.BytesIO(lines), name="big.tsv",
                    create_missing_clips=True)  # fmt: skip
    assert str(error.value) == (
        "big.tsv, line 3: more than 2 data lines: the limit of one import "
        "(split the file and import the parts one after the other)"
    )
    with pytest.raises(ImportFailed, match="line 3: more than 2 data lines"):
        judgments_import(collection=collection, stream=io.BytesIO(b"q1 d1 1\nq1 d2 2\nq1 d3 3\n"),
                         name="big.qrels")  # fmt: skip
    assert table_snapshot() == before


def test_a_line_longer_than_a_mebibyte_is_refused_without_reading_the_rest(collection):
    class Endless(io.RawIOBase):
        """A file of one endless line: reading it whole would never end."""

        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"x" * len(buffer)
            self.read_bytes += len(buffer)
            return len(buffer)

    endless = Endless()
    with pytest.raises(ImportFailed, match=r"line 1: a line is longer than 1,048,576 bytes"):
        runs_import(collection=collection, stream=io.BufferedReader(endless), name="endless.tsv")
    assert endless.read_bytes < 4 * MAX_LINE_BYTES


def test_the_answers_import_from_a_stream_stops_at_its_row_limit(collection, monkeypatch):
    monkeypatch.setattr(answers_importer, "MAX_ROWS", 1)
    text = b"query,list_a,list_b,answer,worker\nq1,d1,d2,a_better,w1\nq1,d1,d2,a_better,w2\n"
    with pytest.raises(answers_importer.AnswersImportError, match=r"a\.csv:3: more than 1 answers"):
        answers_importer.preference_answers_import(
            collection=collection, stream=io.BytesIO(text), filename="a.csv"
        )
