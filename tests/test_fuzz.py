"""Property-based fuzzing of every importer, the answers import and the API's write endpoints.

Hypothesis generates files and JSON bodies from hostile values (``tests/helpers/fuzzing.py``:
NUL and control characters, lone surrogates, 4,400-digit numbers, 1e308, lines too long
for a column, broken UTF-8, bare CRs) mixed with valid ids, so that both the checks and
the code behind them are reached. For every case the outcome must be accepted or a clean
error — :class:`~ingest.importers.ImportFailed` naming file and line, the answers
import's ``<file>:<line>:`` error, a 4xx with a message — never a traceback; and a clean
error must leave the database exactly as it was (never a partial import). These run on
SQLite and again on PostgreSQL (``make test``'s second pass), where a NUL byte or an
over-long value used to end in a ``DataError``.

Bounded: :data:`tests.helpers.fuzzing.FUZZ` (a fixed, derandomised set of cases per target).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import JudgmentSource
from crowd.models import PreferenceCampaign
from crowd.services.examples import examples_import_csv
from ingest.importers import (
    ImportFailed,
    clips_import,
    judgments_import,
    metadata_import,
    mirex_import,
    runs_import,
)
from pastanswers.importers.answers import preference_answers_import
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.crowd_fixtures import build_crowd_collection, make_campaign
from tests.helpers.fuzzing import (
    FUZZ,
    api_write_routes,
    hostile_text,
    json_values,
    lines_of,
    near,
    row,
    run_case,
    same_cases_whatever_is_imported,
)
from tests.helpers.importing import collection_make
from tests.helpers.personas import PASSWORD, make_personas
from work.models import Job

pytestmark = pytest.mark.django_db

IDS = ["q1", "q2", "d1", "d2", "d3", "S1", "S2", "Q0", "0", "1", "2", "50", "0.5"]


same_cases_in_every_run = pytest.fixture(autouse=True)(same_cases_whatever_is_imported)


fields = st.lists(hostile_text(known=IDS), max_size=7)
QUERY, DOC, SYSTEM = near("q1", "q2"), near("d1", "d2", "d3", "new"), near("S1", "S2", "A/B")
SCORE, FINE, BROAD = near("0.5", "3", "-1.25"), near("0", "50", "100"), near("0", "1", "2")
run_lines = st.one_of(
    row(SYSTEM, QUERY, DOC),  # system query doc
    row(QUERY, near("Q0"), DOC, near("1", "2", "3"), SCORE, SYSTEM),  # TREC
    fields,
)
judgment_lines = st.one_of(
    row(QUERY, DOC, FINE), row(QUERY, DOC, FINE, BROAD), row(QUERY, near("0", "Q0"), DOC, BROAD),
    fields,
)  # fmt: skip
metadata_lines = st.one_of(row(DOC, near("ABBA", "The Band", ""), near("pop", "rock")), fields)


def valid_lines(*lines: str) -> st.SearchStrategy[bytes]:
    """A file of some of ``lines``, each at most once (so that it imports)."""
    return st.lists(st.sampled_from(lines), min_size=1, unique=True).map(
        lambda chosen: "".join(f"{line}\r\n" for line in chosen).encode()
    )


@pytest.fixture
def collection():
    return collection_make(clips="d1 d2 d3", queries="q1 q2")


@FUZZ
@given(
    data=lines_of(run_lines),
    options=st.fixed_dictionaries({
        "format": st.sampled_from(["auto", "trec", "ranked"]),
        "create_missing_clips": st.booleans(), "create_missing_queries": st.booleans(),
        "replace": st.booleans(),
    }),
)  # fmt: skip
def test_runs_import(collection, data, options):
    run_case("import_runs", lambda: runs_import(collection=collection, stream=io.BytesIO(data),
                                                name="runs.tsv", **options),
             clean=(ImportFailed,))  # fmt: skip


@FUZZ
@given(
    data=lines_of(judgment_lines),
    options=st.fixed_dictionaries({
        "format": st.sampled_from(["auto", "qrels", "fine"]),
        "scale": st.sampled_from([None, "fine", "broad"]),
        "create_missing_clips": st.booleans(), "replace": st.booleans(),
        "dry_run": st.booleans(), "source": st.one_of(st.none(), hostile_text(known=IDS)),
    }),
)  # fmt: skip
def test_judgments_import(collection, data, options):
    run_case("import_judgments", lambda: judgments_import(collection=collection,
             stream=io.BytesIO(data), name="qrels.txt", **options), clean=(ImportFailed,))  # fmt: skip


@FUZZ
@given(data=lines_of(metadata_lines), create=st.booleans())
def test_metadata_import(collection, data, create):
    run_case("import_metadata", lambda: metadata_import(collection=collection,
             stream=io.BytesIO(data), name="metadata.tsv", create_missing_clips=create),
             clean=(ImportFailed,))  # fmt: skip


def csv_text(cells: st.SearchStrategy[str], header: st.SearchStrategy[list[str]]):
    row = st.lists(cells, max_size=6).map(
        lambda values: ",".join(v if i % 3 else f'"{v}"' for i, v in enumerate(values))
    )
    return st.tuples(header, st.lists(row, max_size=6), st.sampled_from(["\n", "\r\n", "\r"])).map(
        lambda parts: (
            parts[2].join([",".join(parts[0]), *parts[1]]).encode("utf-8", "surrogatepass")
        )
    )


file_stem = hostile_text(known=IDS).filter(lambda s: "/" not in s and "\x00" not in s
                                           and s not in ("", ".", "..")
                                           and len(s.encode("utf-8", "surrogatepass")) < 200)  # fmt: skip


@FUZZ
@given(
    stems=st.lists(st.tuples(file_stem, st.sampled_from([".wav", ".mp3", ".WAV", ".txt"])),
                   max_size=4),
    metadata=st.one_of(st.none(), csv_text(hostile_text(known=IDS),
                                           st.sampled_from([["id", "title"], ["id", "artist", "genre"],
                                                            ["title"], ["id", "id"], ["ID", "Genre"]]))),
)  # fmt: skip
def test_clips_import(collection, tmp_path_factory, settings, stems, metadata):
    folder = tmp_path_factory.mktemp("clips")
    settings.MEDIA_ROOT = str(tmp_path_factory.mktemp("media"))
    for stem, suffix in stems:
        try:
            (folder / f"{stem}{suffix}").write_bytes(b"RIFF\x00\x00\x00\x00WAVE")
        except (OSError, UnicodeEncodeError):
            return  # a name this file system cannot hold: no case
    csv_path = None
    if metadata is not None:
        csv_path = folder.parent / f"{folder.name}-meta.csv"
        csv_path.write_bytes(metadata)
    run_case("import_clips", lambda: clips_import(collection=collection, folder=folder,
             metadata_csv=csv_path), clean=(ImportFailed,))  # fmt: skip


@FUZZ
@given(runs=st.one_of(valid_lines("S1\tq1\td1", "S1\tq1\td2", "S2\tq2\tnew"),
                      lines_of(st.one_of(row(SYSTEM, QUERY, DOC), fields))),
       judgments=st.one_of(valid_lines("q1\td1\t80", "q2\tnew\t0"),
                           lines_of(st.one_of(row(QUERY, DOC, FINE), fields))),
       metadata=st.one_of(valid_lines("d1\tABBA\tpop", "q1\tThe Band\trock"),
                          lines_of(metadata_lines)),
       name=st.one_of(st.none(), hostile_text()))  # fmt: skip
def test_mirex_import(collection, tmp_path_factory, runs, judgments, metadata, name):
    folder = tmp_path_factory.mktemp("mirex")
    for file, data in (
        ("runs.tsv", runs),
        ("judgments.tsv", judgments),
        ("metadata.tsv", metadata),
    ):
        (folder / file).write_bytes(data)
    run_case("import_mirex", lambda: mirex_import(owner=collection.owner, folder=folder, name=name),
             clean=(ImportFailed,))  # fmt: skip


CROWD_IDS = ["q1", "q2", "d01", "d02", "d03", "d04", "d05", "d06 d07", "d01 d02 d03 d04 d05",
             "d06 d07 d08 d09 d10", "a_better", "b_better", "both_good", "both_bad", "w1", "w2",
             "50 60 70 80 90", "2012-08-01T10:00:00", "9999-12-31T23:59:59-23:59", "1e308", "12.5"]  # fmt: skip
ANSWER_COLUMNS = ["query", "list_a", "list_b", "answer", "worker", "fine_a", "fine_b", "broad_a",
                  "broad_b", "answered_at", "seconds", "comment", "colour"]  # fmt: skip


@pytest.fixture
def crowd(personas):
    return build_crowd_collection(personas.organiser)


LIST_A, LIST_B = (
    near("d01 d02 d03 d04 d05", "d01|d02|d03|d04|d05"),
    near("d06 d07 d08 d09 d10", "d01 d02 d03 d04 d05"),
)
answer_rows = st.tuples(
    near("q1", "q2"),
    LIST_A,
    LIST_B,
    near("a_better", "b_better", "both_good", "both_bad"),
    near("w1", "w2", "cf-1"),
    near("", "50 60 70 80 90"),
    near("", "1 2 0 1 2"),
    near("", "2012-08-01T10:00:00", "2012-08-01T10:00:00+02:00"),
    near("", "12.5", "0"),
    near("", "nice", "=cmd"),
).map(lambda r: ",".join(f'"{v}"' if "," in v or '"' in v else v for v in r))
ANSWERS_HEADER = "query,list_a,list_b,answer,worker,fine_a,broad_b,answered_at,seconds,comment"


@FUZZ
@given(
    data=st.one_of(
        st.lists(answer_rows, min_size=1, max_size=6).map(
            lambda rows: "\n".join([ANSWERS_HEADER, *rows]).encode("utf-8", "surrogatepass")),
        csv_text(hostile_text(known=CROWD_IDS),
                 st.one_of(st.just(ANSWER_COLUMNS[:5]), st.just(ANSWER_COLUMNS[:12]),
                           st.lists(st.sampled_from(ANSWER_COLUMNS), max_size=8))),
    ),
    replace=st.booleans(), campaign=st.one_of(st.just(""), hostile_text()),
)  # fmt: skip
def test_answers_import(crowd, data, replace, campaign):
    run_case("import_preference_answers", lambda: preference_answers_import(
        collection=crowd, stream=io.BytesIO(data), filename="answers.csv", replace=replace,
        campaign_name=campaign), clean=(ValidationError,))  # fmt: skip


@FUZZ
@given(data=csv_text(hostile_text(known=CROWD_IDS), st.one_of(
    st.just(["query", "list_a", "list_b"]), st.just(["query", "list_a", "list_b", "accepted_answers",
                                                     "explanation"]),
    st.lists(st.sampled_from(["query", "list_a", "list_b", "accepted_answers", "x"]), max_size=5))))  # fmt: skip
def test_examples_csv_import(crowd, data):
    campaign = PreferenceCampaign.objects.filter(collection=crowd).first() or make_campaign(
        crowd, traps=0
    )
    run_case("examples CSV upload", lambda: examples_import_csv(campaign=campaign, text=data),
             clean=(ValidationError,))  # fmt: skip


# --- the REST API's write endpoints ----------------------------------------------------

API_IDS = ["c1", "c2", "c3", "S1", "q", "fine", "broad", "name", "clips", "judgments", "source",
           "replace", "rankings", "status", "official", "pilot", "external_id", "team", "title",
           "username", "password", "olivia"]  # fmt: skip


def hostile_json():
    return json_values(known=API_IDS)


def judgment():
    grade = st.one_of(st.integers(0, 100), st.integers(0, 2), st.integers(-5, 105), hostile_json())
    return st.fixed_dictionaries({"query": near("c1"), "clip": near("c2", "c3")},
                                 optional={"fine": grade, "broad": grade})  # fmt: skip


BODIES = {
    "collections/create/": st.fixed_dictionaries({"name": near("New", "Tiny collection")},
                                                 optional={"description": near("About it.")}),
    "clips/create/": st.fixed_dictionaries({"clips": st.lists(st.fixed_dictionaries(
        {"external_id": near("n1", "n2", "c1")},
        optional={"title": near("T", "Clip 1"), "artist": near("A"), "genre": near("G"),
                  "duration": st.one_of(st.floats(0, 600), st.floats(), hostile_json())}),
        min_size=1, max_size=3)}),
    "queries/create/": st.fixed_dictionaries({"clips": st.lists(near("c1", "c2", "c3"), max_size=3)}),
    "systems/create/": st.fixed_dictionaries({"name": near("S1", "S9", "A/B")},
                                             optional={"team": near("", "T")}),
    "systems/{system}/run/replace/": st.fixed_dictionaries({"rankings": st.dictionaries(
        near("c1"), st.lists(near("c2", "c3"), min_size=1, max_size=3), min_size=1, max_size=2)}),
    "judgments/create/": st.fixed_dictionaries({"judgments": st.lists(judgment(), min_size=1, max_size=3)},
                                               optional={"source": near("panel", "api"),
                                                         "replace": st.one_of(st.booleans(), hostile_json())}),
    "judgment-sources/{source}/status/": st.fixed_dictionaries({"status": near("official", "pilot")}),
    "results/recompute/": hostile_json(),
    "token/": st.fixed_dictionaries({"username": near("olivia", "ada"),
                                     "password": near(PASSWORD, "wrong")}),
}  # fmt: skip


@pytest.fixture
def api_setup(db):
    personas = make_personas()
    source = JudgmentSource.objects.create(
        collection=personas.collection, name="panel", kind="import"
    )
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=personas.organiser).key}")
    return personas, source, api


@pytest.mark.parametrize("endpoint", sorted(BODIES))
@FUZZ
@given(data=st.data(), shaped=st.booleans())
def test_api_write_endpoints(api_setup, endpoint, data, shaped, monkeypatch):
    personas, source, api = api_setup
    from evaluation.services import recompute

    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: True)  # no broker here
    body = data.draw(BODIES[endpoint] if shaped else hostile_json())
    system = personas.collection.systems.get()
    if endpoint == "token/":
        url, client = "/api/token/", APIClient()
    elif endpoint == "collections/create/":
        url, client = "/api/collections/create/", api
    else:
        path = endpoint.format(system=system.pk, source=source.pk)
        url, client = f"/api/collections/{personas.collection.pk}/{path}", api
    method = "put" if "run/replace" in endpoint else "post"

    def call():
        # As a client sends it: JSON text with non-ASCII escaped (a lone surrogate too).
        response = getattr(client, method)(url, json.dumps(body), content_type="application/json")
        if response.status_code >= 500 or response.status_code in (404, 405):
            # A 404 or 405 here means the endpoint itself was not reached: no case.
            raise RuntimeError(f"{response.status_code} from {method.upper()} {url}")
        if response.status_code >= 400:
            raise ApiRefused(response.content.decode() or "no message")

    run_case(f"API {method.upper()} {endpoint}", call, clean=(ApiRefused,))


class ApiRefused(Exception):
    """A 4xx answer: the API's clean error."""


# Every other write endpoint (the organiser self-service ones: collections, sharing,
# people, campaign and results settings, jobs) gets bodies whose keys are the fields these
# endpoints read and whose values are hostile; fewer cases each, as their fields are few.
OTHER_KEYS = ["name", "description", "archived", "username", "email", "user", "users",
              "access", "assessor", "assessors", "open", "instructions", "consent",
              "max_answers_per_worker", "redundancy", "trap_rate", "quiz_length",
              "trust_threshold", "min_listen_seconds", "measures", "test", "adjustment",
              "resamples", "alpha", "reliability_target", "scales", "bins", "collection",
              "mode", "list_length", "days"]  # fmt: skip
OTHER_FUZZ = settings(FUZZ, max_examples=8)


def other_write_routes() -> list[tuple[str, str]]:
    covered = {"/api/token/", "/api/collections/create/"} | {
        f"/api/collections/<id:collection_id>/{path}".replace("{system}", "<id:system_id>")
        .replace("{source}", "<id:source_id>")
        for path in BODIES
    }  # fmt: skip
    return [(route, method) for route, method in api_write_routes() if route not in covered]


@pytest.fixture
def api_targets(api_setup):
    """What the other endpoints' urls name: campaigns of both kinds, a job, an assessor."""
    personas, source, api = api_setup
    collection = personas.collection
    job = Job.objects.create(kind="generate_examples", owner=personas.organiser,
                             collection=collection)  # fmt: skip
    ids = {"collection_id": collection.pk, "system_id": collection.systems.get().pk,
           "source_id": source.pk, "user_id": personas.assessor.pk, "job_id": job.pk,
           "relevance": relevance_campaign_create(collection=collection, name="R").pk,
           "preference": PreferenceCampaign.objects.create(collection=collection, name="P").pk}  # fmt: skip
    return api, ids


@pytest.mark.parametrize(("route", "method"), other_write_routes())
@OTHER_FUZZ
@given(data=st.data())
def test_other_api_write_endpoints(api_targets, route, method, data, monkeypatch):
    api, ids = api_targets
    from evaluation.services import recompute
    from work import handoff

    monkeypatch.setattr(recompute, "_enqueue", lambda pk, countdown: True)  # no broker here
    monkeypatch.setattr(handoff, "send_task", lambda name, *, kwargs, **options: None)
    ids = {
        **ids,
        "campaign_id": ids["relevance" if "relevance-campaigns" in route else "preference"],
    }
    url = route
    for name, value in ids.items():
        url = url.replace(f"<id:{name}>", str(value))
    # An id these tests make nothing for (a crowd example, worker or trap): the body is
    # still read and checked before the lookup, and a missing row is a JSON 404.
    url = re.sub(r"<id:\w+>", "1", url)
    value = hostile_json()
    body = data.draw(st.one_of(st.dictionaries(st.sampled_from(OTHER_KEYS), value, max_size=5),
                               value))  # fmt: skip

    def call():
        response = getattr(api, method)(url, json.dumps(body), content_type="application/json")
        if response.status_code >= 500 or response.status_code == 405:
            raise RuntimeError(f"{response.status_code} from {method.upper()} {url}")
        if response.status_code >= 400:
            detail = response.json() if response.content else None
            if not detail:
                raise RuntimeError(f"{response.status_code} without a message from {url}")
            raise ApiRefused(str(detail))

    run_case(f"API {method.upper()} {route.removeprefix('/api/')}", call, clean=(ApiRefused,))


def test_every_target_was_fuzzed():
    """Every importer module of the apps’ importers/ folders has a fuzz target here."""
    importers = {p.stem for p in Path(__file__).parents[1].glob("*/importers/*.py")}
    helpers = {"__init__", "errors", "index", "rows", "command", "csvfile", "inputs", "looks_like"}
    targets = {"runs", "judgments", "metadata", "clips", "mirex", "answers", "groups"}
    targets |= {"crowdflower", "audio_uploads"}  # fuzzed in ingest/tests/test_upload_fuzz.py
    # "groups" (groups files and past pairwise studies): ingest/tests/test_groups_fuzz.py
    assert importers - helpers == targets
