"""Property-based fuzzing of the upload importers' own modules (the rules of ``tests/test_fuzz.py``):
a CrowdFlower export translated through a column mapping, and a zip unpacked. Every case
ends accepted or with the module's clean error (naming the line or the member), never a
traceback; a zip never writes outside its folder. Bounded by :data:`tests.helpers.fuzzing.FUZZ`."""

from __future__ import annotations

import io
import warnings
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.files.csvfile import csv_records
from common.files.errors import ImportFailed
from ingest.importers.audio_uploads import zip_unpack
from pastanswers.importers.crowdflower import (
    ColumnMapping,
    MappingError,
    TranslationError,
    answers_csv_write,
    mapping_propose,
)
from tests.helpers.fuzzing import FUZZ, hostile_text, json_values, near, run_case
from tests.helpers.uploads import EXPORT, WAV

pytestmark = pytest.mark.django_db

HEADER = EXPORT.split(b"\n", 1)[0].decode().split(",")
CELLS = ["q9", "n1", "n2", "n3", "n4", "90", "10", "System A", "Both are good", "Service B",
         "true", "false", "1/23/2012 10:11:12", "2012-01-23T10:11:12Z", "13/45/2012 99:99:99"]  # fmt: skip


def export_of(header: list[str], rows: list[list[str]], end: str) -> bytes:
    quote = lambda v: f'"{v}"' if any(c in v for c in ',"\n\r') else v  # noqa: E731
    lines = [",".join(quote(v.replace('"', '""')) for v in r) for r in [header, *rows]]
    return end.join(lines).encode("utf-8", "surrogatepass")


@FUZZ
@given(
    header=st.one_of(st.just(HEADER), st.lists(near(*HEADER), max_size=18)),
    rows=st.lists(st.lists(near(*CELLS), max_size=18), max_size=5),
    end=st.sampled_from(["\n", "\r\n", "\r"]),
    mapping=st.one_of(st.none(), json_values(known=HEADER)),
)
def test_a_crowdflower_export_translates_or_names_its_line(header, rows, end, mapping):
    data = export_of(header, rows, end)

    def translate():
        chosen = (mapping_propose(header, ["System A", "Both are good", "Service B"])
                  if mapping is None else ColumnMapping.from_dict(mapping))  # fmt: skip
        answers_csv_write(csv_records(data, path="f.csv"), chosen, io.StringIO())

    run_case("crowdflower export", translate, clean=(TranslationError, MappingError, ImportFailed))


member_name = st.one_of(
    near("a.wav", "x/b.mp3", "meta.csv", "../up.wav", "/abs.wav", "C:\\w.wav", "d/", "._a.wav"),
    hostile_text(),
)


@FUZZ
@given(members=st.lists(st.tuples(member_name, st.sampled_from([WAV[:64], b"", b"RIFF"])),
                        max_size=5),
       max_members=st.sampled_from([2, 10]), max_bytes=st.sampled_from([10, 10_000]))  # fmt: skip
def test_a_zip_unpacks_into_its_folder_or_names_its_member(
    tmp_path_factory, members, max_members, max_bytes
):
    base = tmp_path_factory.mktemp("zip")
    archive, folder = base / "in.zip", base / "out" / "files"
    folder.mkdir(parents=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name": a case we want
        for name, content in members:
            try:
                out.writestr(name, content)
            except (UnicodeEncodeError, ValueError, IndexError):
                return  # a name zipfile cannot write (an empty one, a lone surrogate): no case
    archive.write_bytes(buffer.getvalue())

    def unpack():
        try:
            zip_unpack(archive, folder, max_members=max_members, max_bytes=max_bytes)
        finally:
            outside = {p for p in base.rglob("*") if p.is_file()} - {archive}
            assert all(folder in p.parents for p in outside), f"written outside: {outside}"

    run_case("zip upload", unpack, clean=(ImportFailed,))
