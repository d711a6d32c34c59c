import wave

import pytest

from catalog.models import Clip
from common.files.inputs import NO_DATA_LINES
from ingest.importers import ImportFailed, clips_import
from tests.helpers.audio_files import tone
from tests.helpers.importing import collection_make, table_snapshot, write_lines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def collection():
    return collection_make()


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "audio"
    folder.mkdir()
    return folder


def wav_write(path, *, frames: int, rate: int, fill: bytes = b"\x00\x00") -> None:
    """A mono 16-bit PCM WAV of ``frames`` frames: its duration is frames / rate seconds."""
    with wave.open(str(path), "wb") as audio:
        audio.setnchannels(1)
        audio.setsampwidth(2)
        audio.setframerate(rate)
        audio.writeframes(fill * frames)


def import_failure(collection, folder, **options) -> str:
    with pytest.raises(ImportFailed) as failed:
        clips_import(collection=collection, folder=folder, **options)
    return str(failed.value)


def stored_files(media_root) -> list[str]:
    return sorted(p.name for p in media_root.rglob("*") if p.is_file())


def test_it_makes_a_clip_of_every_audio_file_with_its_duration(collection, folder, media_root):
    wav_write(folder / "calm.wav", frames=12_000, rate=8_000)  # 12,000 / 8,000 = 1.5 s
    (folder / "loud.MP3").write_bytes(tone(".mp3", 1.0))
    (folder / "b.ogg").write_bytes(tone(".ogg", 0.5))
    (folder / "c.flac").write_bytes(tone(".flac", 2.0))
    (folder / "notes.txt").write_text("not audio")

    summary = clips_import(collection=collection, folder=folder)

    assert (summary.audio_files, summary.clips_created, summary.files_stored) == (4, 4, 4)
    clips = {clip.external_id: clip for clip in Clip.objects.filter(collection=collection)}
    assert sorted(clips) == ["b", "c", "calm", "loud"]
    assert clips["calm"].duration == 1.5
    assert (clips["b"].duration, clips["c"].duration) == (0.5, 2.0)  # 4,000 and 16,000 frames
    assert clips["loud"].duration == pytest.approx(1.0, abs=0.15)  # MP3: frames of 1,152
    assert clips["calm"].audio.name == f"clips/{collection.pk}/calm.wav"
    assert clips["calm"].audio.read() == (folder / "calm.wav").read_bytes()
    assert stored_files(media_root) == ["b.ogg", "c.flac", "calm.wav", "loud.MP3"]


@pytest.mark.parametrize(
    "content",
    [
        b"RIFF nonsense",
        b"RIFF\x24\x00\x00\x00WAVE" + bytes(range(256)) * 4,
        b"RIFF\x24\x00\x00\x00WAVEfmt ",
    ],
    ids=["not-wave", "garbage-after-the-header", "cut-short"],
)
def test_a_wav_that_cannot_be_read_stops_the_import_naming_the_file(collection, folder, content):
    """Issue 20: a RIFF/WAVE header followed by garbage made ``wave`` raise RuntimeError and
    the clips job fail with "an unexpected error"; now the message names the file."""
    wav_write(folder / "fine.wav", frames=800, rate=8_000)
    (folder / "broken.wav").write_bytes(content)
    before = table_snapshot()

    message = import_failure(collection, folder)

    assert message.startswith("broken.wav: cannot be decoded as audio (")
    assert "/tmp" not in message and str(folder) not in message  # no server path
    assert table_snapshot() == before  # all or nothing


def test_it_reads_the_duration_of_a_wav_in_another_encoding(collection, folder):
    """``wave`` reads PCM only; libsndfile reads an IEEE-float WAV (format 3) too."""
    header = (
        b"fmt " + (16).to_bytes(4, "little") + (3).to_bytes(2, "little") + (1).to_bytes(2, "little")
    )
    header += (
        (8000).to_bytes(4, "little") + (32000).to_bytes(4, "little") + (4).to_bytes(2, "little")
    )
    header += (32).to_bytes(2, "little") + b"data" + (8).to_bytes(4, "little") + bytes(8)
    (folder / "float.wav").write_bytes(
        b"RIFF" + (4 + len(header)).to_bytes(4, "little") + b"WAVE" + header
    )

    clips_import(collection=collection, folder=folder)

    assert Clip.objects.get(external_id="float").duration == 2 / 8000  # two 4-byte samples


def test_a_clip_over_the_size_or_length_limit_is_refused_naming_it(collection, folder, settings):
    wav_write(folder / "long.wav", frames=8_000 * 11, rate=8_000)  # 11 s, 176,044 bytes
    settings.EARSHOT_CLIP_MAX_SECONDS = 10
    assert import_failure(collection, folder) == "long.wav: 11 s long: a clip may last at most 10 s"
    settings.EARSHOT_CLIP_MAX_SECONDS, settings.EARSHOT_CLIP_MAX_BYTES = 600, 100_000
    assert import_failure(collection, folder) == "long.wav: 0.2 MB: a clip may have at most 0.1 MB"
    assert not Clip.objects.filter(collection=collection).exists()


def test_it_reads_titles_artists_and_genres_from_a_metadata_csv(collection, folder, tmp_path):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    wav_write(folder / "b.wav", frames=800, rate=8_000)
    Clip.objects.create(collection=collection, external_id="old")
    csv = write_lines(
        tmp_path,
        "clips.csv",
        "id,title,artist,genre",
        "# a comment row",
        'a,"Song, with a comma",Ann,jazz',
        "",
        "old,Older,Otto,blues",
    )

    summary = clips_import(collection=collection, folder=folder, metadata_csv=csv)

    assert summary.metadata_rows == 2
    rows = Clip.objects.filter(collection=collection).values_list(
        "external_id", "title", "artist", "genre"
    )
    assert sorted(rows) == [
        ("a", "Song, with a comma", "Ann", "jazz"),
        ("b", "", "", ""),
        ("old", "Older", "Otto", "blues"),
    ]


def test_it_accepts_a_csv_with_only_some_columns_in_any_order(collection, folder, tmp_path):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    csv = write_lines(tmp_path, "clips.csv", "Genre,ID", "rock,a", crlf=False)

    clips_import(collection=collection, folder=folder, metadata_csv=csv)

    assert Clip.objects.get(external_id="a").genre == "rock"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            ["id,name,artist"],
            "clips.csv, line 1: the header must name the columns id, title, artist, genre "
            "(id required, each at most once), found: id, name, artist",
        ),
        (
            ["title,artist", "x,y"],
            "clips.csv, line 1: the header must name the columns id, title, artist, genre "
            "(id required, each at most once), found: title, artist",
        ),
        (["id,title", "a,A", "a,B"], "clips.csv, line 3: duplicate id 'a' (first on line 2)"),
        (["id,title", "a"], "clips.csv, line 2: expected 2 cells, found 1"),
        (["id,title", ",A"], "clips.csv, line 2: empty id"),
        (
            ["id,title", "a,A", "ghost,G"],
            "clips.csv: unknown clip 'ghost': no audio file of that name in audio and no such "
            "clip in collection 'test'",
        ),
        ([], f"clips.csv: {NO_DATA_LINES}"),
    ],
)
def test_it_rejects_a_bad_metadata_csv_naming_file_line_and_problem(
    collection, folder, tmp_path, media_root, lines, message
):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    csv = write_lines(tmp_path, "clips.csv", *lines)

    assert import_failure(collection, folder, metadata_csv=csv) == message
    assert not Clip.objects.exists()
    assert stored_files(media_root) == []


def test_it_rejects_two_audio_files_for_one_clip(collection, folder):
    (folder / "a.mp3").write_bytes(b"mp3")
    (folder / "a.ogg").write_bytes(b"ogg")

    assert import_failure(collection, folder) == "audio: two audio files for clip 'a': a.mp3, a.ogg"


def test_it_names_a_missing_folder(collection, tmp_path):
    assert import_failure(collection, tmp_path / "nowhere") == "nowhere: no such folder"


def test_importing_the_same_folder_twice_changes_nothing(collection, folder, tmp_path, media_root):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    (folder / "b.mp3").write_bytes(tone(".mp3"))
    csv = write_lines(tmp_path, "clips.csv", "id,title", "a,A")
    clips_import(collection=collection, folder=folder, metadata_csv=csv)
    before, files_before = table_snapshot(), stored_files(media_root)

    summary = clips_import(collection=collection, folder=folder, metadata_csv=csv)

    assert table_snapshot() == before
    assert stored_files(media_root) == files_before
    assert (summary.clips_created, summary.clips_updated, summary.clips_present) == (0, 0, 2)
    assert summary.files_stored == 0


def test_changed_audio_replaces_the_stored_file(
    collection, folder, media_root, django_capture_on_commit_callbacks
):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    clips_import(collection=collection, folder=folder)
    wav_write(folder / "a.wav", frames=1_600, rate=8_000, fill=b"\x01\x00")

    with django_capture_on_commit_callbacks(execute=True):
        summary = clips_import(collection=collection, folder=folder)

    clip = Clip.objects.get(external_id="a")
    assert (summary.clips_updated, summary.files_stored) == (1, 1)
    assert clip.duration == 0.2  # 1,600 / 8,000 s
    assert clip.audio.read() == (folder / "a.wav").read_bytes()
    assert len(stored_files(media_root)) == 1  # the old file went on commit


def test_a_failure_while_writing_leaves_no_rows_and_no_stored_files(
    collection, folder, media_root, monkeypatch
):
    wav_write(folder / "a.wav", frames=800, rate=8_000)
    (folder / "b.mp3").write_bytes(tone(".mp3"))

    def bulk_create_fails(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Clip.objects, "bulk_create", bulk_create_fails)

    with pytest.raises(RuntimeError):
        clips_import(collection=collection, folder=folder)

    assert not Clip.objects.exists()
    assert stored_files(media_root) == []
