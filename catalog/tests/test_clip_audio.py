"""Clip audio is served with HTTP Range support, and only to people allowed to hear it."""

import pytest
from django.core.files.base import ContentFile

from common.audio import ByteRange, UnsatisfiableRange, content_type_for, parse_range
from tests.helpers.audio_files import sine_wav
from tests.helpers.personas import PASSWORD

WAV = sine_wav(2.0)  # 2 s at 8 kHz, 16-bit mono: 44-byte header + 32,000 bytes


@pytest.fixture
def clip(personas, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    clip = personas.collection.clips.get(external_id="c1")
    clip.audio.save("c1.wav", ContentFile(WAV))
    return clip


@pytest.fixture
def organiser_client(client, personas):
    client.login(username=personas.organiser.username, password=PASSWORD)
    return client


def test_the_whole_file_is_sent_with_accept_ranges(organiser_client, clip):
    response = organiser_client.get(clip.audio_url())
    assert response.status_code == 200
    assert response["Accept-Ranges"] == "bytes"
    assert response["Content-Type"] == "audio/wav"
    assert b"".join(response.streaming_content) == WAV


def test_the_first_bytes_come_as_partial_content(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE="bytes=0-99")
    assert response.status_code == 206
    assert response["Content-Range"] == f"bytes 0-99/{len(WAV)}"
    assert response["Content-Length"] == "100"
    assert b"".join(response.streaming_content) == WAV[:100]


def test_a_range_in_the_middle_is_sent_exactly(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE="bytes=1000-1999")
    assert response.status_code == 206
    assert response["Content-Range"] == f"bytes 1000-1999/{len(WAV)}"
    assert b"".join(response.streaming_content) == WAV[1000:2000]


def test_an_open_range_runs_to_the_end_of_the_file(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE="bytes=30000-")
    assert response.status_code == 206
    assert b"".join(response.streaming_content) == WAV[30000:]


def test_a_suffix_range_sends_the_last_bytes(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE="bytes=-500")
    assert response.status_code == 206
    assert response["Content-Range"] == f"bytes {len(WAV) - 500}-{len(WAV) - 1}/{len(WAV)}"
    assert b"".join(response.streaming_content) == WAV[-500:]


def test_a_range_beyond_the_end_is_unsatisfiable(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE=f"bytes={len(WAV)}-")
    assert response.status_code == 416
    assert response["Content-Range"] == f"bytes */{len(WAV)}"


def test_a_malformed_range_is_unsatisfiable(organiser_client, clip):
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE="bytes=abc")
    assert response.status_code == 416


@pytest.mark.parametrize(
    "header", ["bytes=0-" + "9" * 4400, "bytes=" + "9" * 4400 + "-", "bytes=-" + "9" * 4400]
)
def test_a_position_of_thousands_of_digits_is_unsatisfiable_not_an_error(
    organiser_client, clip, header
):
    """Python refuses to convert an integer of more than 4,300 digits (ValueError): such a
    header used to be a 500. No file has 10¹⁸ bytes, so the range is unsatisfiable."""
    response = organiser_client.get(clip.audio_url(), HTTP_RANGE=header)
    assert response.status_code == 416
    assert response["Content-Range"] == f"bytes */{len(WAV)}"


def test_anonymous_visitors_cannot_hear_a_clip(client, clip):
    assert client.get(clip.audio_url()).status_code == 404


def test_another_organiser_cannot_hear_a_clip_of_a_collection_not_theirs(client, personas, clip):
    client.login(username=personas.other_organiser.username, password=PASSWORD)
    assert client.get(clip.audio_url()).status_code == 404


def test_an_unknown_token_is_not_found(organiser_client, clip):
    assert organiser_client.get("/audio/not-a-token").status_code == 404


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("bytes=0-0", ByteRange(0, 0)),
        ("bytes=10-2000", ByteRange(10, 999)),  # the end is clipped to the file
        ("bytes=-2000", ByteRange(0, 999)),  # a suffix longer than the file is all of it
        ("bytes=0-1,5-9", None),  # several ranges: the whole file
        (None, None),
    ],
)
def test_range_headers_are_read_as_rfc_9110_says(header, expected):
    assert parse_range(header, 1000) == expected


@pytest.mark.parametrize("header", ["bytes=5-2", "bytes=-0", "bytes=-", "items=0-1", "bytes=1000-"])
def test_impossible_ranges_are_rejected(header):
    with pytest.raises(UnsatisfiableRange):
        parse_range(header, 1000)


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("a.wav", "audio/wav"),
        ("b.MP3", "audio/mpeg"),
        ("c.ogg", "audio/ogg"),
        ("d.flac", "audio/flac"),
    ],
)
def test_each_audio_format_gets_its_content_type(name, content_type):
    assert content_type_for(name) == content_type
