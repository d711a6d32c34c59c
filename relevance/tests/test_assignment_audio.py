"""The assessor's audio URLs (relevance.views.assessors.assignment_audio): made per
assignment, for its own query and candidates only, and every byte sent is recorded as
listening evidence for that assignment (what the must-listen rule reads)."""

import pytest
from django.core.files.base import ContentFile

from listening.models import AudioServed
from relevance.services.campaigns import assignment_next
from tests.helpers.audio_files import played, sine_wav
from tests.helpers.clients import as_
from tests.helpers.lowcost_campaign_data import make_lowcost_campaign, make_lowcost_collection
from tests.helpers.relevance_data import make_assessor, make_campaign

pytestmark = pytest.mark.django_db


def audio_url(assignment, which) -> str:
    return f"/judge/assignments/{assignment.pk}/audio/{which}"


def test_the_assessor_hears_their_query_and_candidates_and_each_send_is_recorded(
    client, personas, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    campaign = make_campaign(personas)
    for clip in campaign.collection.clips.all():
        clip.audio.save(f"{clip.external_id}.wav", ContentFile(sine_wav(1.0)))
    work = assignment_next(campaign=campaign, assessor=personas.assessor)
    entry = campaign.pool.filter(query=work.query).first()
    other_query = campaign.pool.exclude(query=work.query).first()
    assessor = as_(client, personas.assessor)

    assert played(assessor, audio_url(work, "query"), HTTP_RANGE="bytes=0-99").status_code == 206
    assert played(assessor, audio_url(work, entry.pk), HTTP_RANGE="bytes=0-").status_code == 206
    served = {row.clip_id: row.bytes_sent for row in AudioServed.objects.filter(assignment=work)}
    assert served[work.query.clip_id] == 100 and served[entry.clip_id] == entry.clip.audio.size

    assert assessor.get(audio_url(work, other_query.pk)).status_code == 404  # not this query
    assert assessor.get(audio_url(work, "a1")).status_code == 404  # not a place on the page
    stranger = make_assessor("bea")
    campaign.assessors.add(stranger)
    client.logout()
    assert as_(client, stranger).get(audio_url(work, "query")).status_code == 404
    assert AudioServed.objects.count() == 2  # refusals record nothing


def test_a_lowcost_assignment_hears_its_own_pair_only(client, personas, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    collection = make_lowcost_collection(personas.organiser, audio_seconds=0.5)
    campaign = make_lowcost_campaign(collection, assessors=[personas.assessor])
    pair = assignment_next(campaign=campaign, assessor=personas.assessor)
    neighbour = campaign.pool.filter(query=pair.query).exclude(pk=pair.pool_entry_id).first()
    assert neighbour is not None  # the query has other candidates this assignment never judges
    assessor = as_(client, personas.assessor)
    assert played(assessor, audio_url(pair, pair.pool_entry_id)).status_code == 200
    assert assessor.get(audio_url(pair, neighbour.pk)).status_code == 404
    assert list(AudioServed.objects.values_list("clip_id", flat=True)) == [pair.pool_entry.clip_id]
