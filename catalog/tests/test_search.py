"""The collection page's prefix search (catalog.search): exact ranges, answered by indexes."""

from __future__ import annotations

import pytest
from django.db import connection

from catalog.models import Clip
from catalog.search import _successor, prefix_search, search_key
from catalog.selectors import collection_clips

FIELDS = ("external_id", "title", "artist")


def test_the_successor_bounds_exactly_the_strings_that_start_with_a_key():
    assert _successor("amb") == "amc"
    assert _successor("a\U0010ffff") == "b"  # the last code point cannot grow: carry
    assert _successor("\U0010ffff") is None  # no upper bound at all
    assert _successor("\ud7ff") == "\ue000"  # surrogates are skipped
    for text in ("amber", "amb", "ambzzz", "amb\U0010ffff"):
        assert "amb" <= text < _successor("amb")  # Python compares code points, as the DB bytes
    for text in ("amc", "am", "ama\U0010ffff", "b"):
        assert not ("amb" <= text < _successor("amb"))


@pytest.mark.django_db
def test_every_clip_starting_with_the_text_is_found_and_nothing_else(personas):
    collection = personas.collection
    titles = ["Amber", "amber avenue", "AMBIENT", "Ambre", "Lamb", "am", "amc", "ambéry"]
    for i, title in enumerate(titles):
        Clip.objects.create(collection=collection, external_id=f"t{i}", title=title)
    found = {c.title for c in prefix_search(Clip.objects.all(), "AmB", fields=FIELDS,
                                            scope={"collection": collection})}  # fmt: skip
    assert found == {"Amber", "amber avenue", "AMBIENT", "Ambre", "ambéry"}
    everything = prefix_search(
        Clip.objects.all(), "  ", fields=FIELDS, scope={"collection": collection}
    )
    assert everything.count() == collection.clips.count()


@pytest.mark.django_db
def test_the_search_never_reaches_another_collection(personas):
    from catalog.models import Collection

    other = Collection.objects.create(name="Oscar's", owner=personas.other_organiser)
    Clip.objects.create(collection=other, external_id="c1-secret", title="Clip secret")
    assert [
        c.external_id for c in collection_clips(collection=personas.collection, search="c1")
    ] == ["c1"]


@pytest.mark.django_db
def test_letters_beyond_a_to_z_match_as_the_database_lowers_them(personas):
    Clip.objects.create(collection=personas.collection, external_id="e1", title="École")
    found = collection_clips(collection=personas.collection, search="École")
    assert [c.title for c in found] == ["École"]  # typed as stored: found on both databases
    lowered = list(collection_clips(collection=personas.collection, search="école"))
    if connection.vendor == "postgresql":
        assert [c.title for c in lowered] == ["École"]  # PostgreSQL lowers É
    else:
        assert lowered == []  # SQLite's LOWER folds A–Z only (the module says so)
    assert search_key("ÉCOLE") == ("école" if connection.vendor == "postgresql" else "École")


@pytest.mark.django_db
def test_the_database_reads_a_narrow_search_from_the_indexes_not_the_whole_collection(personas):
    Clip.objects.bulk_create(
        Clip(collection=personas.collection, external_id=f"x{i:05d}", title=f"Song {i}",
             artist=f"Band {i}", audio_token=f"t{i}")
        for i in range(3000)
    )  # fmt: skip
    clips = collection_clips(collection=personas.collection, search="song 2999")[:50]
    sql, params = clips.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE judging_clip")  # SQLite needs no statistics for this plan
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    for index in ("clip_id_search", "clip_title_search", "clip_artist_search"):
        assert index in plan, plan
    assert [c.title for c in clips] == ["Song 2999"]
