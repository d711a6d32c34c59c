"""preference_campaign_create (the demo's hook), CSV import and trap questions from judgments."""

import pytest
from django.core.exceptions import ValidationError

from crowd.models import Example, PreferenceCampaign
from crowd.services.campaigns import preference_campaign_create
from crowd.services.examples import examples_import_csv

pytestmark = pytest.mark.django_db


def test_it_makes_an_example_per_system_pair_and_query_and_trap_questions_from_judgments(
    crowd_collection,
):
    campaign = preference_campaign_create(
        collection=crowd_collection, name="Demo study", trap_questions=4, quiz_length=2
    )
    # 3 systems → 3 pairs × 4 queries, every pair of lists differs.
    assert campaign.examples.filter(source=Example.SOURCE_SYSTEMS).count() == 12
    traps = list(
        campaign.examples.filter(trap__isnull=False).values_list(
            "trap__accepted_answers", flat=True
        )
    )
    assert len(traps) == 4 and all(len(a) == 1 for a in traps)
    assert campaign.task_link() == f"/t/{campaign.token}/"
    assert campaign.completion_code != campaign.screen_out_code


def test_it_is_idempotent_by_name(crowd_collection):
    first = preference_campaign_create(collection=crowd_collection, name="Demo study")
    again = preference_campaign_create(collection=crowd_collection, name="Demo study")
    assert first.pk == again.pk and PreferenceCampaign.objects.count() == 1
    assert first.examples.count() == 12


def test_it_refuses_settings_out_of_range(crowd_collection):
    with pytest.raises(ValidationError):
        preference_campaign_create(collection=crowd_collection, name="Bad", trap_rate=1.5)


@pytest.fixture
def empty_campaign(crowd_collection):
    return preference_campaign_create(collection=crowd_collection, name="CSV", system_pairs=None)


def test_a_csv_import_adds_examples_and_trap_questions_once(empty_campaign):
    text = (
        "query,list_a,list_b,accepted_answers,explanation\r\n"
        "q1,d01 d02 d03 d04 d05,d06 d07 d08 d09 d10,,\r\n"
        'q2,d01 d02 d03 d04 d05,d06 d07 d08 d09 d10,b_better|both_bad,"Because, well."\r\n'
    )
    assert len(examples_import_csv(campaign=empty_campaign, text=text)) == 2
    assert examples_import_csv(campaign=empty_campaign, text=text) == []
    trap = empty_campaign.examples.get(trap__isnull=False).trap
    assert (
        trap.accepted_answers == ["b_better", "both_bad"] and trap.explanation == "Because, well."
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("q9,d01 d02 d03 d04 d05,d06 d07 d08 d09 d10", "line 3: unknown query 'q9'"),
        ("q1,d01 d02 d03 d04 zz,d06 d07 d08 d09 d10", "line 3: list_a: unknown clip 'zz'"),
        (
            "q1,d01 d02 d03 d04,d06 d07 d08 d09 d10",
            "line 3: list a has 4 clips, the campaign needs 5",
        ),
        ("q1,d01 d01 d03 d04 d05,d06 d07 d08 d09 d10", "line 3: list a repeats a clip"),
        ("q1,d01 d02 d03 d04 d05,d01 d02 d03 d04 d05", "line 3: the two lists are identical"),
        ("q1,d01 d02 d03 d04 d05,d06 d07 d08 d09 d10,c_better", "line 3: accepted answers must be"),
    ],
)
def test_a_bad_csv_line_stops_the_import_with_its_line_and_adds_nothing(
    empty_campaign, line, message
):
    text = f"query,list_a,list_b,accepted_answers\nq1,d11 d12 d13 d14 d15,d16 d17 d18 d19 d20\n{line}\n"
    with pytest.raises(ValidationError) as error:
        examples_import_csv(campaign=empty_campaign, text=text)
    assert error.value.messages[0].startswith(message)
    assert not empty_campaign.examples.exists()


def test_a_csv_without_the_required_columns_is_refused(empty_campaign):
    with pytest.raises(ValidationError, match="line 1: missing column"):
        examples_import_csv(campaign=empty_campaign, text="query,list_a\nq1,d01\n")


def test_the_campaigns_page_starts_a_new_campaign_on_a_collection_one_may_change(client, personas):
    """Issue 31: /campaigns/ had no "New preference campaign" button."""
    from catalog.models import Collection, CollectionShare

    client.force_login(personas.organiser)
    listing = client.get("/campaigns/").content.decode()
    assert 'href="/campaigns/new/">New preference campaign</a>' in listing
    only = client.get("/campaigns/new/")  # one collection: straight to its form
    assert only["Location"] == f"/collections/{personas.collection.pk}/campaigns/new/"

    second = Collection.objects.create(name="Second", owner=personas.organiser)
    theirs = Collection.objects.create(name="Theirs", owner=personas.other_organiser)
    CollectionShare.objects.create(collection=theirs, user=personas.organiser, access="read")
    page = client.get("/campaigns/new/").content.decode()
    assert "Tiny collection" in page and "Second" in page and "Theirs" not in page
    chosen = client.get(f"/campaigns/new/?collection={second.pk}")
    assert chosen["Location"] == f"/collections/{second.pk}/campaigns/new/"
    refused = client.get(f"/campaigns/new/?collection={theirs.pk}")  # read-only: not offered
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    huge = client.get("/campaigns/new/?collection=99999999999999999999")  # past bigint
    assert huge.status_code == 200 and "Select a valid choice" in huge.content.decode()

    client.force_login(personas.other_organiser)
    Collection.objects.filter(owner=personas.other_organiser).delete()
    none = client.get("/campaigns/new/").content.decode()
    assert "you have no collection you can change yet" in none
