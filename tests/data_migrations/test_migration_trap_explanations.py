"""Migration crowd 0003 writes trap questions' explanations without a side named in letters
where it safely can (crowd/migrations/0003_trap_explanations_side_neutral.py, issue 31
item 2), and back.

"list A" / "List B" / "list_a" meant the stored lists (the trap page showed list a as A,
an examples file's column list_a is list a): they become {a} and {b}. An explanation that
would still name a side afterwards ("B does not") stays as it was, and so do the
side-neutral ones Earshot writes itself.
"""

from tests.helpers.migrating import latest, migrate, migration_test


def crowd_at(migration: str) -> list[tuple[str, str]]:
    """Crowd at ``migration``, the other apps at their latest (what its models refer to),
    but none of pairwise's, whose first migration needs a later crowd (issue 32)."""
    return [
        *(node for node in latest() if node[0] not in ("crowd", "pairwise")),
        ("crowd", migration),
        ("pairwise", None),
    ]


BEFORE, AFTER = "0002_worker_end_shown", "0003_trap_explanations_side_neutral"

STORED = {
    "named": "List A holds clips of the query's own family; list B does not.",
    "column": "list_b has the same tempo as the query",
    "half": "List A holds clips of the query's own family; B does not.",
    "neutral": "The clips of one list sound far more like the query than the other list's.",
    "empty": "",
}
REWRITTEN = {
    "named": "{a} holds clips of the query's own family; {b} does not.",
    "column": "{b} has the same tempo as the query",
    "half": STORED["half"],  # "B does not" cannot be rewritten safely: left, shown to nobody
    "neutral": STORED["neutral"],
    "empty": "",
}


def traps_made(apps) -> None:
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    collection = apps.get_model("catalog", "Collection").objects.create(owner=owner, name="C")
    clip = apps.get_model("catalog", "Clip").objects.create(collection=collection, external_id="q")
    query = apps.get_model("catalog", "Query").objects.create(collection=collection, clip=clip)
    campaign = apps.get_model("crowd", "PreferenceCampaign").objects.create(
        collection=collection, name="Study", completion_code="c", screen_out_code="s"
    )
    Example = apps.get_model("crowd", "Example")
    Trap = apps.get_model("crowd", "TrapQuestion")
    for name, text in STORED.items():
        example = Example.objects.create(campaign=campaign, query=query, signature=name)
        Trap.objects.create(
            example=example, accepted_answers=["a_better"], explanation=text, pool="quiz"
        )


def explanations(apps) -> dict[str, str]:
    Trap = apps.get_model("crowd", "TrapQuestion")
    return dict(Trap.objects.values_list("example__signature", "explanation"))


@migration_test
def test_explanations_naming_the_stored_lists_get_placeholders_and_the_rest_stay():
    traps_made(migrate(crowd_at(BEFORE)))
    assert explanations(migrate(crowd_at(AFTER))) == REWRITTEN


@migration_test
def test_backwards_the_placeholders_are_written_as_the_trap_page_named_the_lists():
    traps_made(migrate(crowd_at(BEFORE)))
    migrate(crowd_at(AFTER))
    back = explanations(migrate(crowd_at(BEFORE)))
    # {a} and {b} become "List A" and "List B": what the organiser wrote, up to the
    # capital ("list B" comes back "List B", "list_b" comes back "List B").
    assert back == {
        **STORED,
        "named": "List A holds clips of the query's own family; List B does not.",
        "column": "List B has the same tempo as the query",
    }
