"""No data lost in the move by area (issue 30, item 7): a database of the layout before the
move, filled, migrated to the new layout, has every row and the same leaderboard.

The database is built with the migrations of the layout before the move (judging's and
evaluation's migrations as they were, the new apps not there: the targets are read from
the move's own migrations, so the test follows whatever was merged before it) and filled
as that code filled it: the demo with its two campaigns (a low-cost one among them), a
crowd campaign with workers, answers and trap questions, background jobs, a hand-off
waiting for the broker, something deleted to the trash (its rows serialized under the
names of that time, ``judging.example``), an admin log entry and a permission on a moved
model. The tables are the same before and after (the move keeps their names): every row
count and the stored leaderboard document must be identical, a new computation of it
too, and what named the old app must name the new one — content types (so permissions
and admin log entries), the trash's rows, which can still be restored.

It runs on both databases of ``make test`` (SQLite and PostgreSQL): the move is a
migration every installation runs once. About 20 s on a quiet machine: it builds,
fills and migrates a whole database twice over.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.apps import apps as current_apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from catalog.models import Collection, TrashItem
from catalog.services.trash import trash_put, trash_restore
from crowd.models import Answer, Example, PreferenceCampaign
from demo.seed import COLLECTION_NAME, demo_seed
from evaluation.models import Leaderboard, Recompute
from relevance.models import RelevanceCampaign
from tests.helpers.crowd_fixtures import answer_all, arrive, build_crowd_collection, make_campaign
from tests.helpers.migrating import latest, migrate, migration_test_on_both
from work.handoff import COLLECTION_CHANGED_TASK
from work.models import Job, PendingHandoff

MOVED_APPS = ("people", "work", "catalog", "listening", "ingest", "relevance", "crowd")
APPS_SINCE_THE_MOVE = ("pairwise",)
"""Apps made after the move (issue 32's pairwise campaigns): none of their migrations in the
old layout, their tables made empty while today's code fills it, as the moved apps' new ones."""
NEW_APPS = (*MOVED_APPS, *APPS_SINCE_THE_MOVE)
LATER_COLUMNS = (Leaderboard,)
"""Models of the apps that did not move whose tables today's code writes with columns
added since the move (evaluation 0015: the leaderboard page's table, issue 34)."""
TABLES_SINCE_THE_MOVE = {
    "catalog_orderedgroupentry",  # catalog 0003, ordered groups (issue 32)
    "relevance_rankedcandidate",  # relevance 0002, expert rankings (issue 32)
    "pairwise_pairwisestudy",  # pairwise 0001 (issue 32)
    "pairwise_pairwisesort",
}
MEASURE = "CG(scale=fine)@5"
VOLATILE = ("computed_at", "seconds", "elapsed")


def before_the_move() -> list[tuple[str, str | None]]:
    """The migration targets of the layout before the move: the migrations judging's and
    evaluation's move migrations follow, none of the new apps', the other apps' latest."""
    graph = MigrationLoader(connection).graph
    moves = {
        app: name for app, name in graph.nodes
        if (app, name[5:]) in (("judging", "models_moved_to_apps"),
                               ("evaluation", "foreign_keys_to_moved_models"))
    }  # fmt: skip
    assert set(moves) == {"judging", "evaluation"}, moves
    targets = []
    for app, name in moves.items():
        (parent,) = [dep for dep in graph.node_map[(app, name)].parents if dep.key[0] == app]
        targets.append(parent.key)
    others = [leaf for leaf in graph.leaf_nodes() if leaf[0] not in (*moves, *NEW_APPS)]
    return targets + others + [(app, None) for app in NEW_APPS]


@contextmanager
def columns_added_since_the_move(old_apps):
    """The code that fills the old layout is today's: the columns today's models have and
    the tables before the move lack (fields the moved apps' later migrations add, such as
    crowd's ``Worker.end_shown`` of issue 31) are there while it fills, and gone again
    before the migrations run forward, which add them as on any installation (and the
    same for :data:`LATER_COLUMNS`); so are the
    tables of models they add (catalog's ordered groups of issue 32), empty, which today's
    code reads (deleting a query looks for its groups)."""
    added, created = [], []
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
        for model in current_apps.get_models():
            table = model._meta.db_table
            if model._meta.app_label not in NEW_APPS and model not in LATER_COLUMNS:
                continue
            if table not in tables:
                created.append(model)
                continue
            description = connection.introspection.get_table_description(cursor, table)
            columns = {column.name for column in description}
            added += [
                (model, f) for f in model._meta.local_concrete_fields if f.column not in columns
            ]
    with connection.schema_editor() as editor:
        for model, field in added:
            # SQLite adds a NOT NULL column by remaking the table with every field today's
            # model has, so one remake may already have added the next field's column.
            with connection.cursor() as cursor:
                description = connection.introspection.get_table_description(
                    cursor, model._meta.db_table
                )
            if field.column not in {column.name for column in description}:
                editor.add_field(model, field)
        for model in created:
            editor.create_model(model)
    try:
        yield
    finally:
        with connection.schema_editor() as editor:
            for model in created:
                assert not model.objects.exists(), f"{model.__name__} filled in the old layout"
                editor.delete_model(model)
            if connection.vendor == "sqlite":
                # SQLite adds a column by remaking the table with today's constraints,
                # some of which name the new columns (relevance 0002's grouping rule), so
                # a column cannot be dropped alone: the table is remade as it was then.
                then = {m._meta.db_table: m for m in old_apps.get_models()}
                for table in {model._meta.db_table for model, _ in added}:
                    editor._remake_table(then[table])
            else:
                for model, field in added:
                    editor.remove_field(model, field)


@contextmanager
def recomputes_of_today(old_apps):
    """Today's ``Recompute`` has the field names of all background work (evaluation 0014,
    issue 30 item 3), the old layout's table those of before: while today's code fills,
    the (empty) old table is today's; then each row it holds is written back as the code
    of before wrote it (``pending`` for ``queued``, ``attempts`` for the claims, ``runs``
    for the computations, a ``progress`` fraction, ``claimed_at``) in the old table,
    which evaluation 0014 carries forward with the rest."""
    Old = old_apps.get_model("evaluation", "Recompute")
    assert not Old.objects.exists()
    with connection.schema_editor() as editor:
        editor.delete_model(Old)
        editor.create_model(Recompute)
    try:
        yield
    finally:
        rows = list(Recompute.objects.values())
        with connection.schema_editor() as editor:
            editor.delete_model(Recompute)
            editor.create_model(Old)
        for row in rows:
            state, runs, done, total = (row.pop(f) for f in ("state", "runs", "done", "total"))
            Old.objects.create(
                **{f: v for f, v in row.items() if f not in ("computations", "started_at")},
                status="pending" if state == "queued" else state, attempts=runs,
                runs=row["computations"], progress=done / total if total else 0.0,
                claimed_at=row["started_at"],
            )  # fmt: skip


def row_counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def steady(document):
    """A leaderboard document without the fields that say when and how fast it was made."""
    if isinstance(document, dict):
        return {k: steady(v) for k, v in document.items() if k not in VOLATILE}
    if isinstance(document, list):
        return [steady(v) for v in document]
    return document


def old_labels(item: TrashItem) -> None:
    """Write a trash item's rows as the code before the move did: ``judging.<model>``."""
    payload = item.rows
    for row in payload["rows"]:
        row["model"] = "judging." + row["model"].partition(".")[2]
    for link in payload["emptied"]:
        link[0] = "judging." + link[0].partition(".")[2]
    TrashItem.objects.filter(pk=item.pk).update(rows=payload)


def fill(old_apps) -> dict:
    """The database of the layout before the move, as its code filled it."""
    demo_seed(audio=False)  # the demo: collections, judgments, two campaigns, low-cost too
    demo = Collection.objects.get(name=COLLECTION_NAME)
    owner = demo.owner
    crowd = build_crowd_collection(owner)
    campaign = make_campaign(crowd, traps=4, quiz_length=2, trap_rate=0.2)
    for worker_id in ("w1", "w2", "w3"):
        answer_all(arrive(campaign, worker_id))
    Job.objects.create(kind="upload_runs", owner=owner, collection=crowd, state="done",
                       params={"upload": 1}, result={"counts": []})  # fmt: skip
    PendingHandoff.objects.create(task=COLLECTION_CHANGED_TASK, target_id=crowd.pk)
    spare = Example.objects.filter(campaign=campaign, trap__isnull=True).last()
    item = trash_put(root=spare, kind="example", collection=crowd, by=owner, with_answers=True)
    old_labels(item)
    call_command("recompute", "--collection", str(demo.pk), verbosity=0)

    # what the admin and the permissions hold, under the old app label
    old_type = old_apps.get_model("contenttypes", "ContentType")
    collection_type = old_type.objects.get(app_label="judging", model="collection")
    old_apps.get_model("admin", "LogEntry").objects.create(
        user_id=owner.pk, content_type_id=collection_type.pk, object_id=str(demo.pk),
        object_repr=demo.name, action_flag=2, change_message="renamed",
    )  # fmt: skip
    permission = old_apps.get_model("auth", "Permission").objects.get(
        content_type=collection_type, codename="change_collection"
    )
    old_apps.get_model("auth", "User").objects.get(pk=owner.pk).user_permissions.add(permission)
    return {"demo": demo, "campaign": campaign, "trash": item, "owner": owner}


@migration_test_on_both
def test_a_database_of_the_old_layout_keeps_every_row_and_its_leaderboard():
    old_apps = migrate(before_the_move())  # built forward from nothing, as it was then
    ContentType.objects.clear_cache()
    assert not ContentType.objects.filter(app_label__in=MOVED_APPS).exists()
    assert ContentType.objects.filter(app_label="judging", model="worker").exists()
    with columns_added_since_the_move(old_apps), recomputes_of_today(old_apps):
        filled = fill(old_apps)
    demo, campaign = filled["demo"], filled["campaign"]
    # (the old layout's table has no columns added since: LATER_COLUMNS)
    board = Leaderboard.objects.only("payload", "computed_at").get(collection=demo, measure=MEASURE)
    before = row_counts()
    assert before["judging_answer"] == Answer.objects.count() > 0
    assert before["judging_relevancecampaign"] == RelevanceCampaign.objects.count() >= 2
    assert before["judging_trashitem"] == 1 and before["judging_job"] == 1
    assert before["evaluation_recompute"] >= 1  # the demo's, in the old names

    migrate(latest())
    ContentType.objects.clear_cache()

    after = row_counts()
    assert {t: n for t, n in after.items() if t in before and t != "django_migrations"} == {
        t: n for t, n in before.items() if t != "django_migrations"
    }
    # the tables of models added since the move, empty
    assert {t: n for t, n in after.items() if t not in before} == dict.fromkeys(
        TABLES_SINCE_THE_MOVE, 0
    )
    assert Recompute.objects.get(kind="collection", target_id=demo.pk).state == "done"
    stored = Leaderboard.objects.get(collection=demo, measure=MEASURE)
    assert (stored.pk, stored.payload, stored.computed_at) == (
        board.pk, board.payload, board.computed_at
    )  # fmt: skip
    call_command("recompute", "--collection", str(demo.pk), verbosity=0)
    again = Leaderboard.objects.get(collection=demo, measure=MEASURE)
    assert steady(again.payload) == steady(board.payload)

    # What named judging names the models' apps now.
    assert not ContentType.objects.filter(app_label="judging").exists()
    moved = current_apps.get_model("catalog", "Collection")
    log = current_apps.get_model("admin", "LogEntry").objects.get()
    assert log.get_edited_object() == demo and log.content_type.model_class() is moved
    owner = type(filled["owner"]).objects.get(pk=filled["owner"].pk)
    assert owner.has_perm("catalog.change_collection")
    assert Permission.objects.filter(content_type__app_label="judging").count() == 0
    examples = campaign.examples.count()
    trash_restore(item=TrashItem.objects.get())
    assert campaign.examples.count() == examples + 1  # the deleted example is back
    assert PreferenceCampaign.objects.filter(pk=campaign.pk).exists()
