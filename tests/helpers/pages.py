"""Every organiser page and API with who may reach it (``world``: a collection, its
campaigns, jobs and personas, and :class:`Url` rows): the permission matrix, the
read-only controls, the URL fuzzing and the plain-words crawl all read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from catalog.models import CollectionShare, JudgmentSource, OrderedGroupEntry
from catalog.services.trash import trash_put
from common.roles import ASSESSOR, ORGANISER
from crowd.models import Example, TrapQuestion, Worker
from evaluation.core.answers import mapping_payload
from evaluation.models import EstimatedLeaderboard, SatisfactionMapping
from evaluation.services.estimates import campaign_estimate_compute
from ingest.services.uploads import upload_create
from pairwise.services.create import pairwise_campaign_create
from relevance.services.campaigns import relevance_campaign_create
from tests.helpers.crowd_fixtures import build_crowd_collection, make_campaign
from tests.helpers.mappings import ANSWERS, columns
from tests.helpers.personas import make_user
from tests.helpers.results_payloads import MEASURE, store_results
from work.models import Job

PERSONAS = ("owner", "full", "read", "other", "assessor", "anonymous")


OK_FOR = {
    "read": {"owner", "full", "read"},
    "write": {"owner", "full"},
    "share": {"owner"},
    "organiser": {"owner", "full", "read", "other"},
    "person": {"owner"},  # invitations: the organiser who made the account (olivia made bea)
}


M = quote(MEASURE)


@dataclass
class Url:
    name: str
    method: str
    path: str
    need: str
    ok: int
    data: dict = field(default_factory=dict)
    refused: str = ""
    """How refusal shows when not by the rule's 403/404: a form that offers only the
    collections one may change re-shows itself (``status 200``) and writes nothing."""

    @property
    def api(self) -> bool:
        return self.path.startswith("/api/")


@dataclass
class World:
    users: dict
    urls: list[Url]


@pytest.fixture
def world(personas, settings, tmp_path) -> World:
    olivia = personas.organiser
    fiona, rita = make_user("fiona", ORGANISER), make_user("rita", ORGANISER)
    bea = make_user("bea", ASSESSOR, owner=olivia)
    c = build_crowd_collection(olivia)
    CollectionShare.objects.create(collection=c, user=fiona, access="full")
    CollectionShare.objects.create(collection=c, user=rita, access="read")
    p = make_campaign(c, traps=2, quiz_length=1, trap_rate=0.1)
    pairs = pairwise_campaign_create(collection=c, name="Pairs", trap_rate=0.0).campaign
    SatisfactionMapping.objects.create(
        campaign=p, measure=MEASURE, computed_at=timezone.now(),
        payload={**mapping_payload(MEASURE, *columns(ANSWERS)), "n_examples": 8,
                 "skipped": {"no_score": 0, "out_of_range": 0}},
    )  # fmt: skip
    r = relevance_campaign_create(
        collection=c, name="Similarity", cutoff=5, assessors=[personas.assessor], must_listen_seconds=0
    )  # fmt: skip
    low = relevance_campaign_create(
        collection=c, name="Low-cost", mode="lowcost", lowcost_measure="CG@5", must_listen_seconds=0
    )  # fmt: skip
    low.assessors.add(bea)  # bea judges on c: fiona (full) sees her and can give her work
    campaign_estimate_compute(target_id=low.pk)  # its payload serves as an estimated board too
    EstimatedLeaderboard.objects.create(collection=c, measure=MEASURE, computed_at=timezone.now(),
                                        payload=low.estimate.payload)  # fmt: skip
    store_results(c)
    alpha = c.systems.get(name="Alpha")  # results pages address a system by id
    source = JudgmentSource.objects.create(collection=c, name="Pilot", kind="import")
    groups = JudgmentSource.objects.create(
        collection=c, name="Experts", kind="groups", status="pilot"
    )
    first_query = c.queries.first()
    OrderedGroupEntry.objects.create(source=groups, query=first_query, group=1,
                                     clip=c.clips.exclude(pk=first_query.clip_id).first())  # fmt: skip
    settings.EARSHOT_UPLOAD_ROOT = tmp_path / "uploads"
    export = SimpleUploadedFile("cf.csv", b"_worker_id,q,d1a,d1b,answer\n7,q1,d01,d02,A\n")
    pending = upload_create(kind="answers", owner=olivia, collection=c,
                            files={"answers": [export]}, options={"format": "crowdflower"})  # fmt: skip
    job = Job.objects.create(kind="generate_examples", owner=olivia, collection=c,
                             state="running", params={"campaign": p.pk})  # fmt: skip
    done = Job.objects.create(kind="generate_examples", owner=olivia, collection=c, state="done",
                              params={"campaign": p.pk}, result={})  # fmt: skip
    example = p.examples.filter(trap__isnull=True).first()
    trap = TrapQuestion.objects.filter(example__campaign=p).first()
    system = c.systems.first()
    query = c.queries.select_related("clip").first().clip.external_id
    clip = c.clips.exclude(as_queries__isnull=False).first().external_id
    sa, sb = c.systems.order_by("name")[:2]
    settings = {
        "name": "Study 2", "instructions": "Listen.", "consent_text": "Agree.",
        "answers_per_example": 2, "max_answers_per_worker": 20, "quiz_length": 1,
        "trap_rate": 0.1, "trust_threshold": 0.6, "min_trap_answers": 2,
        "completion_code": "DONE1", "screen_out_code": "OUT1", "listening_check": "on",
        "min_clips_per_list": 1, "min_seconds_on_task": 5, "fast_answer_seconds": 10,
        "stop_after_fast_answers": 0, "min_work_answers": 1, "trust_check_every": 10,
        "bonus_per_answer": "0", "headphone_pass_mark": 5,
    }  # fmt: skip
    active = Worker.objects.create(campaign=p, platform="generic", platform_id="w-on", seed=1,
                                   browser_key="k1")  # fmt: skip
    stopped = Worker.objects.create(campaign=p, platform="generic", platform_id="w-off", seed=2,
                                    browser_key="k2", status="stopped", stop_reason="low_trust")  # fmt: skip
    trashed = trash_put(root=c.systems.create(name="Gone"), kind="system", collection=c, by=olivia)
    ids = list(c.clips.exclude(as_queries__isnull=False).values_list("external_id", flat=True))
    lists = f"{' '.join(ids[: p.list_length])},{' '.join(ids[-p.list_length :])}"
    csv = f"query,list_a,list_b\n{query},{lists}\n"  # a file without a data line is a 400
    relevance = {"name": "Similarity 2", "assessors_per_query": 2, "queries_per_assessor": "",
                 "must_listen_seconds": 3, "take_back_minutes": 30}  # fmt: skip
    results = {"form": "results", "measures": MEASURE, "test": "t", "adjustment": "holm",
               "resamples": 1000, "seed": 1, "alpha": 0.05, "reliability_target": 0.9}  # fmt: skip
    cp, rp, pp, j = f"/collections/{c.pk}", f"/relevance-campaigns/{r.pk}", f"/campaigns/{p.pk}", f"/jobs/{job.pk}"  # fmt: skip
    rs = f"{cp}/results"
    a = "/api"
    # fmt: off
    urls = [
        # --- pages: organiser level (no collection in the address) ---
        Url("catalog:collections", "GET", "/collections/", "organiser", 200),
        Url("catalog:collection_new", "GET", "/collections/new/", "organiser", 200),
        Url("catalog:collection_new", "POST", "/collections/new/", "organiser", 302, {"name": "Mine"}),
        Url("relevance:relevance_campaigns", "GET", "/relevance-campaigns/", "organiser", 200),
        Url("relevance:relevance_campaign_new", "GET", "/relevance-campaigns/new/", "organiser", 200),
        Url("relevance:relevance_campaign_new", "POST", "/relevance-campaigns/new/", "write", 302,
            {"collection": c.pk, "name": "By form", "cutoff": 5, "assessors_per_query": 1,
             "must_listen_seconds": 5, "take_back_minutes": 60}, refused="status 200"),
        Url("relevance:ranking_campaign_new", "GET", "/ranking-campaigns/new/", "organiser", 200),
        Url("relevance:ranking_campaign_new", "POST", "/ranking-campaigns/new/", "write", 302,
            {"collection": c.pk, "name": "Ranked by form", "cutoff": 5, "assessors_per_query": 1,
             "must_listen_seconds": 5, "take_back_minutes": 60, "grouping_rule": "all",
             "grouping_alpha": 0.25, "groups_status": "pilot"}, refused="status 200"),
        Url("crowd:preference_campaigns", "GET", "/campaigns/", "organiser", 200),
        Url("crowd:preference_campaign_new", "GET", f"/campaigns/new/?collection={c.pk}", "write", 302,
            refused="status 200"),
        Url("people:people", "GET", "/people/", "organiser", 200),
        Url("evaluation:glossary", "GET", "/glossary/", "organiser", 200),
        Url("people:people", "POST", "/people/", "organiser", 302, {"username": "newbie", "role": "assessor", "how": "invite"}),
        Url("people:invitation_new", "POST", f"/people/{bea.pk}/invitation/", "person", 302),
        # --- pages: read ---
        Url("catalog:collection", "GET", f"{cp}/", "read", 200),
        Url("catalog:collection", "GET", f"{cp}/?show=systems&q=S", "read", 200),
        Url("relevance:relevance_campaign", "GET", f"{rp}/", "read", 200),
        Url("relevance:relevance_campaign_qrels", "GET", f"{rp}/qrels?scale=fine&policy=mean", "read", 200),
        Url("relevance:relevance_campaign_csv", "GET", f"{rp}/judgments.csv", "read", 200),
        Url("crowd:preference_campaign", "GET", f"{pp}/", "read", 200),
        Url("crowd:preference_campaign_examples", "GET", f"{pp}/examples/", "read", 200),
        Url("crowd:preference_campaign_answers_csv", "GET", f"{pp}/answers.csv", "read", 200),
        Url("crowd:preference_campaign_approvals_csv", "GET", f"{pp}/approvals.csv", "read", 200),
        Url("crowd:preference_campaign_workers", "GET", f"{pp}/workers/?status=stopped", "read", 200),
        Url("crowd:preference_campaign_answers", "GET", f"{pp}/answers/?fast=1", "read", 200),
        Url("catalog:job", "GET", f"{j}/", "read", 200),
        Url("catalog:job_status", "GET", f"{j}/status.json", "read", 200),
        Url("catalog:job_result", "GET", f"/jobs/{done.pk}/result/", "read", 200),
        Url("evaluation:results", "GET", f"{rs}/", "read", 200),
        Url("evaluation:results_status", "GET", f"{rs}/status.json", "read", 200),
        Url("evaluation:leaderboard", "GET", f"{rs}/leaderboard/?measure={M}", "read", 200),
        Url("evaluation:leaderboard_export", "GET", f"{rs}/leaderboard.csv?measure={M}", "read", 200),
        Url("evaluation:significance", "GET", f"{rs}/significance/?measure={M}", "read", 200),
        Url("evaluation:system", "GET", f"{rs}/systems/{alpha.pk}/?measure={M}", "read", 200),
        Url("evaluation:reliability", "GET", f"{rs}/reliability/?measure={M}", "read", 200),
        Url("evaluation:mapping", "GET", f"{rs}/mapping/?campaign={p.pk}", "read", 200),
        Url("evaluation:mapping_export", "GET", f"{rs}/mapping.json?campaign={p.pk}&measure={M}", "read", 200),
        Url("evaluation:plot_csv", "GET", f"{rs}/leaderboard/plots/means.csv?measure={M}", "read", 200),
        Url("evaluation:estimated_leaderboard", "GET", f"{rs}/estimated/?measure={M}", "read", 200),
        Url("evaluation:optimality", "GET", f"{rs}/choosing-a-test/", "read", 200),
        Url("evaluation:campaign_estimate", "GET", f"/relevance-campaigns/{low.pk}/estimates/?fragment=1", "read", 200),
        # --- pages: write ---
        Url("catalog:collection_edit", "GET", f"{cp}/edit/", "write", 200),
        Url("listening:collection_listening", "GET", f"{cp}/listening/", "read", 200),
        Url("catalog:delete", "GET", f"{cp}/delete/system/{sa.pk}/", "write", 200),
        Url("catalog:delete", "POST", f"{cp}/delete/system/{sa.pk}/", "write", 302),
        Url("catalog:trash", "GET", f"{cp}/trash/", "read", 200),
        Url("catalog:query", "GET", f"{cp}/queries/{c.queries.first().pk}/", "read", 200),
        Url("catalog:deleted_collections", "GET", "/trash/", "organiser", 200),
        Url("catalog:trash_restore", "POST", f"/trash/{trashed.pk}/restore/", "write", 302),
        Url("listening:collection_listening", "POST", f"{cp}/listening/", "write", 302, {"loudness_target": "-23"}),
        Url("catalog:collection_edit", "POST", f"{cp}/edit/", "write", 302, {"name": "Renamed", "description": "d"}),
        Url("catalog:judgment_source_status", "POST", f"{cp}/judgment-sources/{source.pk}/status/", "write", 302, {"status": "pilot"}),
        Url("catalog:judgment_source_groups", "GET", f"{cp}/judgment-sources/{groups.pk}/groups.txt", "read", 200),
        Url("catalog:collection_archive", "POST", f"{cp}/archive/", "write", 302, {"archived": "1"}),
        Url("relevance:relevance_campaign_settings", "GET", f"{rp}/settings/", "write", 200),
        Url("relevance:relevance_campaign_settings", "POST", f"{rp}/settings/", "write", 302, relevance),
        Url("relevance:relevance_campaign_open", "POST", f"{rp}/open/", "write", 302, {"is_open": "0"}),
        Url("relevance:relevance_campaign_assessors", "GET", f"{rp}/assessors/", "write", 200),
        Url("relevance:relevance_campaign_assessors", "POST", f"{rp}/assessors/", "write", 302, {"assessor": bea.pk}),
        Url("relevance:relevance_campaign_assessor_remove", "POST", f"{rp}/assessors/{personas.assessor.pk}/remove/", "write", 302),
        Url("relevance:relevance_campaign_headphones_again", "POST", f"{rp}/assessors/{personas.assessor.pk}/headphones-again/", "write", 302),
        Url("crowd:preference_campaign_create", "GET", f"{cp}/campaigns/new/", "write", 200),
        Url("crowd:preference_campaign_create", "POST", f"{cp}/campaigns/new/", "write", 302,
            {"name": "Another", "instructions": "i", "consent_text": "c", "list_length": 5,
             "answers_per_example": 1, "max_answers_per_worker": 10, "quiz_length": 0,
             "trap_rate": 0.1, "trust_threshold": 0.7, "min_trap_answers": 3,
             "completion_code": "AAA", "screen_out_code": "BBB", "is_open": "on"}),
        Url("pairwise:campaign_new", "GET", f"/campaigns/pairs/new/?collection={c.pk}", "write", 302,
            refused="status 200"),
        Url("pairwise:campaign_create", "GET", f"{cp}/campaigns/pairs/new/", "write", 200),
        Url("pairwise:campaign_create", "POST", f"{cp}/campaigns/pairs/new/", "write", 302,
            {"name": "Pairs 2", "instructions": "i", "consent_text": "c", "max_answers_per_worker": 10,
             "quiz_length": 0, "trap_rate": 0, "trust_threshold": 0.7, "min_trap_answers": 3,
             "completion_code": "AAA", "screen_out_code": "BBB", "is_open": "on", "margin": 2,
             "answers_per_pair": 10, "source_status": "pilot"}),
        Url("pairwise:sort", "GET", f"/campaigns/{pairs.pk}/sort/", "read", 200),
        Url("crowd:preference_campaign_settings", "GET", f"{pp}/settings/", "write", 200),
        Url("crowd:preference_campaign_settings", "POST", f"{pp}/settings/", "write", 302, settings),
        Url("crowd:preference_campaign_open", "POST", f"{pp}/open/", "write", 302, {"is_open": "0"}),
        Url("crowd:preference_generator", "GET", f"{pp}/generator/", "write", 200),
        Url("crowd:preference_generator", "POST", f"{pp}/generator/", "write", 302,
            {"families": ["CG"], "scales": ["fine"], "gain": "lin", "bins": list(range(10)),
             "per_bin": 2, "seed": 0, "action": "run", "confirm": "yes"}),
        Url("crowd:preference_examples_from_systems", "POST", f"{pp}/examples/from-systems/", "write", 302, {"system_a": sa.pk, "system_b": sb.pk}),
        Url("crowd:preference_examples_from_csv", "POST", f"{pp}/examples/from-csv/", "write", 302),
        Url("crowd:preference_example_trap", "GET", f"{pp}/examples/{example.pk}/trap/", "write", 200),
        Url("crowd:preference_example_trap", "POST", f"{pp}/examples/{example.pk}/trap/", "write", 302,
            {"accepted_answers": ["a_better"], "explanation": "{a} is clearly better."}),
        Url("crowd:preference_trap_contest", "POST", f"{pp}/traps/{trap.pk}/contest/", "write", 302, {"contested": "1"}),
        Url("crowd:preference_traps_fill", "POST", f"{pp}/traps/fill/", "write", 302),
        Url("crowd:preference_worker_exclude", "POST", f"{pp}/workers/{active.pk}/exclude/", "write", 302, {"reason": "bot"}),
        Url("crowd:preference_worker_reinstate", "POST", f"{pp}/workers/{stopped.pk}/reinstate/", "write", 302),
        Url("crowd:preference_worker_browser_reset", "POST", f"{pp}/workers/{active.pk}/reset-browser/", "write", 302),
        Url("catalog:job_cancel", "POST", f"{j}/cancel/", "write", 302),
        Url("catalog:job_retry", "POST", f"{j}/retry/", "write", 302),
        Url("ingest:uploads", "GET", f"{cp}/uploads/", "write", 200),
        Url("ingest:upload_new", "GET", f"{cp}/uploads/judgments/", "write", 200),
        Url("ingest:upload_new", "POST", f"{cp}/uploads/judgments/", "write", 400),  # no file chosen
        Url("pastanswers:upload_columns", "GET", f"{cp}/uploads/answers/{pending.pk}/columns/", "write", 200),
        Url("pastanswers:upload_columns", "POST", f"{cp}/uploads/answers/{pending.pk}/columns/", "write", 400),  # nothing chosen
        Url("evaluation:results_recompute", "POST", f"{rs}/recompute/", "write", 302),
        Url("evaluation:mapping_recompute", "POST", f"{rs}/mapping/recompute/?campaign={p.pk}", "write", 302),
        Url("evaluation:optimality_compute", "POST", f"{rs}/choosing-a-test/compute/", "write", 302, {"trials": 10, "resamples": 100}),
        Url("evaluation:results_settings", "GET", f"{rs}/settings/", "write", 200),
        Url("evaluation:results_settings", "POST", f"{rs}/settings/", "write", 302, results),
        # --- pages: share ---
        Url("catalog:collection_sharing", "GET", f"{cp}/sharing/", "share", 200),
        Url("catalog:collection_sharing", "POST", f"{cp}/sharing/", "share", 302, {"username": "oscar", "access": "read"}),
        Url("catalog:collection_unshare", "POST", f"{cp}/sharing/remove/", "share", 302, {"username": "rita"}),
        # --- API: organiser level ---
        Url("api:collection_list", "GET", f"{a}/collections/", "organiser", 200),
        Url("api:collection_create", "POST", f"{a}/collections/create/", "organiser", 201, {"name": "Via API"}),
        Url("api:campaign_list", "GET", f"{a}/campaigns/", "organiser", 200),
        Url("api:relevance_campaign_list", "GET", f"{a}/relevance-campaigns/", "organiser", 200),
        Url("api:people_list", "GET", f"{a}/people/", "organiser", 200),
        Url("api:person_create", "POST", f"{a}/people/create/", "organiser", 201, {"username": "newbie"}),
        Url("api:invitation_create", "POST", f"{a}/people/{bea.pk}/invitation/", "person", 201),
        # --- API: read ---
        Url("api:collection_detail", "GET", f"{a}/collections/{c.pk}/", "read", 200),
        Url("api:clip_list", "GET", f"{a}/collections/{c.pk}/clips/?q=d0", "read", 200),
        Url("api:judgment_source_list", "GET", f"{a}/collections/{c.pk}/judgment-sources/", "read", 200),
        Url("api:judgment_source_groups", "GET", f"{a}/collections/{c.pk}/judgment-sources/{groups.pk}/groups/", "read", 200),
        Url("api:query_list", "GET", f"{a}/collections/{c.pk}/queries/", "read", 200),
        Url("api:system_list", "GET", f"{a}/collections/{c.pk}/systems/", "read", 200),
        Url("api:run_detail", "GET", f"{a}/collections/{c.pk}/systems/{system.pk}/run/", "read", 200),
        Url("api:judgment_list", "GET", f"{a}/collections/{c.pk}/judgments/", "read", 200),
        Url("api:campaign_detail", "GET", f"{a}/campaigns/{p.pk}/", "read", 200),
        Url("api:answer_list", "GET", f"{a}/campaigns/{p.pk}/answers/", "read", 200),
        Url("api:relevance_campaign_detail", "GET", f"{a}/relevance-campaigns/{r.pk}/", "read", 200),
        Url("api:campaign_settings", "GET", f"{a}/campaigns/{p.pk}/settings/", "read", 200),
        Url("api:generator_coverage", "GET", f"{a}/campaigns/{p.pk}/generator/coverage/?measure={M}", "read", 200),
        Url("api:job_detail", "GET", f"{a}/jobs/{job.pk}/", "read", 200),
        Url("api:results_status", "GET", f"{a}/collections/{c.pk}/results/", "read", 200),
        Url("api:leaderboard_detail", "GET", f"{a}/collections/{c.pk}/leaderboard/?measure={M}", "read", 200),
        Url("api:reliability_detail", "GET", f"{a}/collections/{c.pk}/reliability/?measure={M}", "read", 200),
        Url("api:optimality_detail", "GET", f"{a}/collections/{c.pk}/optimality/", "read", 200),
        Url("api:mapping_detail", "GET", f"{a}/campaigns/{p.pk}/mapping/?measure={M}", "read", 200),
        Url("api:results_settings", "GET", f"{a}/collections/{c.pk}/results/settings/", "read", 200),
        Url("api:mapping_settings", "GET", f"{a}/campaigns/{p.pk}/mapping/settings/", "read", 200),
        Url("api:worker_list", "GET", f"{a}/campaigns/{p.pk}/workers/", "read", 200),
        Url("api:approval_list", "GET", f"{a}/campaigns/{p.pk}/approvals/", "read", 200),
        Url("api:trap_list", "GET", f"{a}/campaigns/{p.pk}/traps/", "read", 200),
        # --- API: write ---
        Url("api:clip_create", "POST", f"{a}/collections/{c.pk}/clips/create/", "write", 201, {"clips": [{"external_id": "new1"}]}),
        Url("api:query_create", "POST", f"{a}/collections/{c.pk}/queries/create/", "write", 201, {"clips": [clip]}),
        Url("api:system_create", "POST", f"{a}/collections/{c.pk}/systems/create/", "write", 201, {"name": "S9"}),
        Url("api:run_replace", "PUT", f"{a}/collections/{c.pk}/systems/{system.pk}/run/replace/", "write", 200, {"rankings": {query: [clip]}}),
        Url("api:judgment_create", "POST", f"{a}/collections/{c.pk}/judgments/create/", "write", 201, {"judgments": [{"query": query, "clip": clip, "fine": 50}]}),
        Url("api:collection_update", "POST", f"{a}/collections/{c.pk}/update/", "write", 200, {"description": "New words"}),
        Url("api:judgment_source_status", "POST", f"{a}/collections/{c.pk}/judgment-sources/{source.pk}/status/", "write", 200, {"status": "pilot"}),
        Url("api:collection_archive", "POST", f"{a}/collections/{c.pk}/archive/", "write", 200, {"archived": True}),
        Url("api:relevance_campaign_create", "POST", f"{a}/relevance-campaigns/create/", "write", 201, {"collection": c.pk, "name": "Second"}),
        Url("api:relevance_campaign_settings_update", "POST", f"{a}/relevance-campaigns/{r.pk}/settings/update/", "write", 200, {"take_back_minutes": 30}),
        Url("api:relevance_campaign_open", "POST", f"{a}/relevance-campaigns/{r.pk}/open/", "write", 200, {"is_open": False}),
        Url("api:relevance_campaign_assessor_add", "POST", f"{a}/relevance-campaigns/{r.pk}/assessors/add/", "write", 200, {"username": "bea"}),
        Url("api:relevance_campaign_assessor_remove", "POST", f"{a}/relevance-campaigns/{r.pk}/assessors/remove/", "write", 200, {"username": "ada"}),
        Url("api:campaign_settings_update", "POST", f"{a}/campaigns/{p.pk}/settings/update/", "write", 200, {"trust_threshold": 0.8}),
        Url("api:campaign_open", "POST", f"{a}/campaigns/{p.pk}/open/", "write", 200, {"is_open": False}),
        Url("api:campaign_create", "POST", f"{a}/collections/{c.pk}/campaigns/create/", "write", 201, {"name": "By API"}),
        Url("api:examples_from_systems", "POST", f"{a}/campaigns/{p.pk}/examples/from-systems/", "write", 201, {"system_a": sa.pk, "system_b": sb.pk}),
        Url("api:examples_from_csv", "POST", f"{a}/campaigns/{p.pk}/examples/from-csv/", "write", 201, {"csv": csv}),
        Url("api:trap_mark", "POST", f"{a}/campaigns/{p.pk}/examples/{example.pk}/trap/", "write", 201, {"accepted_answers": ["a_better"]}),
        Url("api:trap_contest", "POST", f"{a}/campaigns/{p.pk}/traps/{trap.pk}/contest/", "write", 200, {"contested": True}),
        Url("api:traps_fill", "POST", f"{a}/campaigns/{p.pk}/traps/fill/", "write", 200),
        Url("api:worker_exclude", "POST", f"{a}/campaigns/{p.pk}/workers/{active.pk}/exclude/", "write", 200, {"reason": "bot"}),
        Url("api:worker_reinstate", "POST", f"{a}/campaigns/{p.pk}/workers/{stopped.pk}/reinstate/", "write", 200),
        Url("api:worker_browser_reset", "POST", f"{a}/campaigns/{p.pk}/workers/{active.pk}/reset-browser/", "write", 200),
        Url("api:generator_run", "POST", f"{a}/campaigns/{p.pk}/generator/run/", "write", 202, {"measures": [MEASURE], "per_bin": 2}),
        Url("api:job_cancel", "POST", f"{a}/jobs/{job.pk}/cancel/", "write", 200),
        Url("api:job_retry", "POST", f"{a}/jobs/{job.pk}/retry/", "write", 200),
        # uploads are multipart: a JSON body without files is a 400 ("Choose the … file"),
        # and is read only past the access rule
        *[Url(f"api:upload_{kind}", "POST", f"{a}/collections/{c.pk}/uploads/{path}/", "write", 400)
          for kind, path in (("clips", "clips"), ("runs", "runs"), ("judgments", "judgments"),
                             ("groups", "groups"), ("pairwise", "pairwise"),
                             ("mirex", "mirex"), ("answers", "answers"),
                             ("answer_columns", "answers/columns"))],
        Url("api:results_recompute", "POST", f"{a}/collections/{c.pk}/results/recompute/", "write", 202),
        Url("api:optimality_compute", "POST", f"{a}/collections/{c.pk}/optimality/compute/", "write", 202, {"trials": 10}),
        Url("api:results_settings_update", "POST", f"{a}/collections/{c.pk}/results/settings/update/", "write", 200, {"alpha": 0.01}),
        Url("api:mapping_settings_update", "POST", f"{a}/campaigns/{p.pk}/mapping/settings/update/", "write", 200, {"measures": [MEASURE]}),
        # --- API: share ---
        Url("api:share_list", "GET", f"{a}/collections/{c.pk}/shares/", "share", 200),
        Url("api:share_create", "POST", f"{a}/collections/{c.pk}/shares/create/", "share", 201, {"username": "oscar", "access": "read"}),
        Url("api:share_delete", "POST", f"{a}/collections/{c.pk}/shares/delete/", "share", 200, {"username": "rita"}),
    ]
    # fmt: on
    users = {
        "owner": olivia,
        "full": fiona,
        "read": rita,
        "other": personas.other_organiser,
        "assessor": personas.assessor,
        "anonymous": None,
    }  # fmt: skip
    assert Example.objects.filter(campaign=p).exists()
    return World(users=users, urls=urls)
