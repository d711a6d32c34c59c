"""Importing preference answers collected elsewhere: the documented file, every malformed
case (all or nothing, file and line named), idempotence, the command."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from catalog.models import Clip, RelevanceJudgment
from common.files.inputs import NO_DATA_LINES
from crowd.models import Answer, PreferenceCampaign
from evaluation.models import Recompute
from evaluation.services import campaign_mapping_compute
from evaluation.services import recompute as recompute_service
from pastanswers.importers.answers import preference_answers_import
from work.handoff import ANSWERS_ACCEPTED_TASK
from work.tasks import preference_answers_accepted

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "preference-answers.csv"
HEADER = "query,list_a,list_b,answer,worker"
GOOD_ROW = "q1,d01 d02 d03 d04 d05,d06 d07 d08 d09 d10,a_better,w1"


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    sent = []
    monkeypatch.setattr(recompute_service, "_enqueue", lambda pk, countdown: sent.append(pk))
    return sent


def run(collection, text, name="x.csv", **options):
    return preference_answers_import(collection=collection, text=text, filename=name, **options)


def test_the_documented_example_imports_as_accepted_answers(
    crowd_collection, django_capture_on_commit_callbacks, no_broker, handed_over
):
    judgments_before = RelevanceJudgment.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        report = run(crowd_collection, EXAMPLE.read_text(), name="preference-answers.csv")
    campaign = report.campaign
    assert campaign.name == "Imported: preference-answers.csv" and not campaign.is_open
    assert campaign.imported_from == "preference-answers.csv"
    assert (report.rows, report.answers_created, report.examples_created) == (4, 4, 3)
    assert (report.workers_created, report.judgments_created) == (3, 15)
    assert RelevanceJudgment.objects.count() == judgments_before + 15
    source = crowd_collection.judgment_sources.get(name=f"answers: {campaign.name}")
    assert (source.kind, source.counts, source.origin) == (
        "answers",
        True,
        "preference-answers.csv",
    )
    assert RelevanceJudgment.objects.filter(source=source).count() == 15
    answers = Answer.objects.filter(example__campaign=campaign).order_by("answered_at", "pk")
    assert all(a.accepted_at is not None and not a.excluded for a in answers)
    # The last row shows the third row's example with the sides swapped: b_better as shown
    # is a_better about the stored lists.
    last = answers.get(worker__platform_id="cf-1003")
    assert (last.choice, last.swapped, last.outcome) == ("b_better", True, "a_better")
    first = answers.get(worker__platform_id="cf-1001", choice="a_better")
    assert first.seconds == 41.5 and first.answered_at.isoformat() == "2012-08-01T10:00:00+00:00"
    # Handed over to evaluation after the commit, like answers collected in Earshot; the
    # task (run here as the worker runs it) asks for the campaign's mapping recompute.
    assert (ANSWERS_ACCEPTED_TASK, {"campaign_id": campaign.pk}) in handed_over
    with django_capture_on_commit_callbacks(execute=True):
        preference_answers_accepted(campaign.pk)
    row = Recompute.objects.get(kind="campaign", target_id=campaign.pk)
    assert no_broker == [row.pk]  # the mapping is recomputed after the commit
    stored = campaign_mapping_compute(campaign=campaign)
    assert campaign.satisfaction_mappings.get(measure=stored[0]).payload["n_answers"] == 4


def test_importing_the_same_file_again_adds_nothing(crowd_collection):
    first = run(crowd_collection, EXAMPLE.read_text())
    again = run(crowd_collection, EXAMPLE.read_text())
    assert again.campaign.pk == first.campaign.pk and not again.campaign_created
    assert (again.answers_created, again.answers_present, again.examples_created) == (0, 4, 0)
    # The judgments the file carries are already stored as they are: nothing changes.
    assert (again.judgments_created, again.judgments_updated, again.judgments_present) == (0, 0, 15)
    assert Answer.objects.count() == 4


def test_a_different_answer_of_the_same_worker_on_reimport_is_refused(crowd_collection):
    run(crowd_collection, f"{HEADER}\n{GOOD_ROW}\n")
    with pytest.raises(ValidationError, match=r"x\.csv:2: worker 'w1' already has a different"):
        run(crowd_collection, f"{HEADER}\n{GOOD_ROW.replace('a_better', 'both_bad')}\n")
    assert Answer.objects.get().outcome == "a_better"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("query,list_a,list_b,answer\n", "x.csv:1: missing column(s) worker"),
        (f"{HEADER},colour\n{GOOD_ROW},red\n", "x.csv:1: unknown column(s) colour"),
        (f"{HEADER}\n", f"x.csv: {NO_DATA_LINES}"),
        (f"{HEADER}\n{GOOD_ROW}\nq1,d01 d02,d03 d04,a_better,w2\n", "x.csv:3: lists of 2 clips; earlier rows have 5"),
        (f"{HEADER}\nq9,d01,d02,a_better,w1\n", "x.csv:2: query 'q9' is not a clip"),
        (f"{HEADER}\nq1,d01 zz,d02 d03,a_better,w1\n", "x.csv:2: list_a: 'zz' is not a clip"),
        (f"{HEADER}\nq1,d01 d01,d02 d03,a_better,w1\n", "x.csv:2: list_a repeats a clip"),
        (f"{HEADER}\nq1,d01 d02,d03,a_better,w1\n", "x.csv:2: list_a has 2 clips and list_b 1"),
        (f"{HEADER}\nq1,d01,d02,A,w1\n", "x.csv:2: answer 'A' is not one of"),
        (f"{HEADER}\nq1,d01,d02,a_better,\n", "x.csv:2: worker is empty"),
        (f"{HEADER}\n{GOOD_ROW}\n{GOOD_ROW}\n", "x.csv:3: worker 'w1' answered this example on line 2"),
        (f"{HEADER},fine_a\nq1,d01 d02,d03 d04,a_better,w1,10\n", "x.csv:2: fine_a has 1 judgments for 2 clips"),
        (f"{HEADER},fine_a\nq1,d01,d03,a_better,w1,101\n", "x.csv:2: fine_a: '101' is not a whole number from 0 to 100"),
        (f"{HEADER},broad_b\nq1,d01,d03,a_better,w1,3\n", "x.csv:2: broad_b: '3' is not a whole number from 0 to 2"),
        (f"{HEADER},fine_b\nq1,d01,d03,a_better,w1,x\n", "x.csv:2: fine_b: 'x' is not a number"),
        (f"{HEADER},fine_a\nq1,d01,d03,a_better,w1,10\nq1,d01,d04,a_better,w1,20\n", "x.csv:3: d01 is judged differently for query q1 on line 2"),
        (f"{HEADER},answered_at\nq1,d01,d03,a_better,w1,yesterday\n", "x.csv:2: answered_at 'yesterday' is not an ISO 8601 time"),
        (f"{HEADER},seconds\nq1,d01,d03,a_better,w1,-2\n", "x.csv:2: seconds must be a number ≥ 0"),
        (f"{HEADER}\nq1,d01,d03,a_better,w1,extra\n", "x.csv:2: more fields than columns"),
        (f"{HEADER}\nq1,q1 d01,d02 d03,a_better,w1\n", "x.csv:2: list_a contains the query itself"),
    ],
)  # fmt: skip
def test_a_malformed_file_names_file_and_line_and_imports_nothing(crowd_collection, text, message):
    judgments = RelevanceJudgment.objects.count()
    with pytest.raises(ValidationError) as error:
        run(crowd_collection, text)
    assert error.value.messages[0].startswith(message), error.value.messages[0]
    assert PreferenceCampaign.objects.count() == 0 and Answer.objects.count() == 0
    assert RelevanceJudgment.objects.count() == judgments


def test_a_clip_without_any_judgment_needs_one_in_the_file(crowd_collection):
    Clip.objects.create(collection=crowd_collection, external_id="new")
    with pytest.raises(ValidationError, match=r"x\.csv:3: new has no judgment for query q1"):
        run(
            crowd_collection,
            f"{HEADER}\n{GOOD_ROW}\nq1,new d02 d03 d04 d05,d06 d07 d08 d09 d10,a_better,w2\n",
        )
    assert Answer.objects.count() == 0
    report = run(crowd_collection, f"{HEADER},fine_a\nq1,new d02,d03 d04,a_better,w1,50 60\n")
    assert report.answers_created == 1


def test_answers_never_go_into_a_campaign_made_in_earshot(crowd_collection):
    PreferenceCampaign.objects.create(collection=crowd_collection, name="Study")
    with pytest.raises(ValidationError, match="was not made by an import"):
        run(crowd_collection, f"{HEADER}\n{GOOD_ROW}\n", campaign_name="Study")
    assert Answer.objects.count() == 0


def test_the_command_imports_and_reports_and_fails_with_file_and_line(crowd_collection, capsys):
    call_command(
        "import_preference_answers",
        str(crowd_collection.pk),
        str(EXAMPLE),
        "--campaign",
        "Old study",
    )
    out = capsys.readouterr().out
    assert "Created campaign 'Old study'" in out and "4 answers imported" in out
    bad = EXAMPLE.parent / "does-not-exist.csv"
    with pytest.raises(CommandError, match=r"does-not-exist\.csv"):
        call_command("import_preference_answers", str(crowd_collection.pk), str(bad))


# --- hostile and extreme values (issue 11): clean errors with file and line -------------


@pytest.mark.parametrize(
    ("extra", "value", "message"),
    [
        ("answered_at", "9999-12-31T23:59:59-23:59", "x.csv:2: answered_at '9999-12-31T23:59:59-23:59' is out of range"),
        ("answered_at", "0001-01-01T00:00:00+23:59", "x.csv:2: answered_at '0001-01-01T00:00:00+23:59' is out of range"),
        ("answered_at", "2012-13-45T10:00:00", "x.csv:2: answered_at '2012-13-45T10:00:00' is not an ISO 8601 time"),
        ("seconds", "1e308", "x.csv:2: seconds '1e308' is more than 2,592,000 (30 days)"),
        ("seconds", "nan", "x.csv:2: seconds must be a number ≥ 0"),
        ("comment", "x" * 2001, "x.csv:2: comment 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… is longer than 2,000 characters"),
        ("comment", "nul \x00 here", "x.csv:2: comment 'nul \\x00 here' contains a NUL character"),
        ("comment", "x" * (128 * 1024 + 1), "x.csv:2: a field is longer than 131,072 characters"),
    ],
)  # fmt: skip
def test_extreme_values_are_clean_errors_with_file_and_line(
    crowd_collection, extra, value, message
):
    text = f"{HEADER},{extra}\n{GOOD_ROW},{value}\n"
    with pytest.raises(ValidationError) as error:
        run(crowd_collection, text)
    assert error.value.messages[0].startswith(message), error.value.messages[0]
    assert Answer.objects.count() == 0 and PreferenceCampaign.objects.count() == 0


@pytest.mark.parametrize(
    ("worker", "message"),
    [
        (
            "w" * 201,
            "x.csv:2: worker 'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww'… is longer than 200",
        ),
        ("w\x00", "x.csv:2: worker 'w\\x00' contains a NUL character"),
        ("w\x1b[2J", "x.csv:2: worker 'w\\x1b[2J' contains a control character (U+001B)"),
    ],
)
def test_a_worker_id_that_no_database_stores_is_refused_on_every_database(
    crowd_collection, worker, message
):
    """PostgreSQL used to end a 300-character worker id in a DataError traceback."""
    with pytest.raises(ValidationError) as error:
        run(crowd_collection, f"{HEADER}\n{GOOD_ROW.replace(',w1', ',' + worker)}\n")
    assert error.value.messages[0].startswith(message), error.value.messages[0]
    assert Answer.objects.count() == 0


def test_a_bare_carriage_return_in_a_field_is_named_by_line(crowd_collection):
    with pytest.raises(ValidationError, match=r"x\.csv:2: a line break \(CR\) inside a field"):
        run(crowd_collection, f"{HEADER}\nq1,d01\rd02,d03 d04,a_better,w1\n".encode())


def test_answers_comparing_two_identical_lists_are_kept(crowd_collection):
    """The thesis author's CrowdFlower study has 27 of them in 2,200 answers: "both good"
    and "both bad" still say whether the list satisfies (thesis §3.3.1)."""
    same = "d01 d02 d03 d04 d05"
    text = f"{HEADER}\n{GOOD_ROW}\nq1,{same},{same},both_good,w1\nq1,{same},{same},both_bad,w2\n"
    report = run(crowd_collection, text)
    assert (report.answers_created, report.examples_created) == (3, 2)
    identical = report.campaign.examples.get(
        signature__endswith=report.campaign.examples.get(
            answers__worker__platform_id="w2"
        ).signature.split("|", 1)[1]
    )
    lists = {side: [i.clip.external_id for i in identical.items.filter(side=side).order_by("rank")]
             for side in "ab"}  # fmt: skip
    assert lists["a"] == lists["b"] == same.split()
    assert sorted(identical.answers.values_list("outcome", flat=True)) == ["both_bad", "both_good"]
    again = run(crowd_collection, text)  # and importing it again adds nothing
    assert (again.answers_created, again.answers_present) == (0, 3)


def test_the_command_reads_the_file_as_a_stream_and_replaces_judgments_only_when_asked(
    crowd_collection, tmp_path, capsys
):
    path = tmp_path / "answers.csv"
    path.write_text(f"{HEADER},fine_a\nq1,d01,d02,a_better,w1,50\n")
    call_command("import_preference_answers", str(crowd_collection.pk), str(path))
    path.write_text(f"{HEADER},fine_a\nq1,d01,d02,a_better,w1,70\n")
    with pytest.raises(CommandError, match=r"would change \(line 2: q1 d01 Fine 50 → 70\)"):
        call_command("import_preference_answers", str(crowd_collection.pk), str(path))
    call_command("import_preference_answers", str(crowd_collection.pk), str(path), "--replace")
    source = crowd_collection.judgment_sources.get(name="answers: Imported: answers.csv")
    assert list(source.judgments.values_list("fine", flat=True)) == [70]
