"""Judgment source strings become JudgmentSource rows (judging 0011, 0012), and back.

Before, ``RelevanceJudgment.source`` was a string (``import:<file>``, ``campaign:<id>``,
``api:<user>``, ``answers-import:<campaign id>``, ``demo``); every judgment must end up
in the source of its own collection, every campaign with a source of its own, nothing
lost, and migrating backwards must give the strings back.
"""

from tests.helpers.migrating import migrate, migration_test

BEFORE = [("judging", "0010_validated_names_and_texts")]
AFTER = [("judging", "0012_judgment_source_column")]
"""The two migrations under test, and no further: walking on through issue 30's move
and back (which :mod:`tests.data_migrations.test_move_by_area` tests) took most of this
test's 110 s."""


STRINGS = ["import:extra.tsv", "api:olivia", "answers-import:3", "demo", ""]


@migration_test
def test_source_strings_become_sources_of_their_collection_and_back():
    apps = migrate(BEFORE)
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    Collection = apps.get_model("judging", "Collection")
    Judgment = apps.get_model("judging", "RelevanceJudgment")
    made = {}
    for name in ("One", "Two"):
        collection = Collection.objects.create(owner=owner, name=name)
        clip = collection.clips.create(external_id="q")
        query = collection.queries.create(clip=clip)
        campaign = apps.get_model("judging", "RelevanceCampaign").objects.create(
            collection=collection,
            name="extra.tsv",  # the same name as an import source
        )
        for n, text in enumerate([*STRINGS, f"campaign:{campaign.pk}"]):
            doc = collection.clips.create(external_id=f"d{n}")
            made[(name, text)] = Judgment.objects.create(
                query=query, clip=doc, source=text, fine=n
            ).pk

    apps = migrate(AFTER)
    Source = apps.get_model("judging", "JudgmentSource")
    Judgment = apps.get_model("judging", "RelevanceJudgment")
    for (collection_name, text), pk in made.items():
        judgment = Judgment.objects.select_related("source").get(pk=pk)
        source = judgment.source
        assert source.collection.name == collection_name and source.status == "official"
        if text.startswith("campaign:"):
            assert (source.kind, source.relevance_campaign_id, source.name) == (
                "campaign", int(text.split(":")[1]), "extra.tsv",
            )  # fmt: skip
    one = {s.name: s.kind for s in Source.objects.filter(collection__name="One")}
    assert one == {
        "extra.tsv": "campaign", "extra.tsv (2)": "import", "api:olivia": "api",
        "answers-import:3": "answers", "demo": "demo", "unnamed": "import",
    }  # fmt: skip
    assert Source.objects.filter(collection__name="Two").count() == 6

    apps = migrate(BEFORE)
    Judgment = apps.get_model("judging", "RelevanceJudgment")
    for (_, text), pk in made.items():
        assert Judgment.objects.get(pk=pk).source == text
