"""Helpers for the importer tests: small files written the way real ones arrive."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import get_commands, load_command_class
from django.db import connections

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from common.files.errors import ImportFailed
from tests.helpers.shared_data import MIREX2011, require


def write_lines(folder: Path, name: str, *lines: str, crlf: bool = True) -> Path:
    """Write ``lines`` to ``folder/name`` with CRLF line ends (as MIREX's files have)."""
    path = folder / name
    end = "\r\n" if crlf else "\n"
    path.write_bytes("".join(line + end for line in lines).encode("utf-8"))
    return path


def collection_make(
    *, name: str = "test", clips: str = "", queries: str = "", owner_name: str = "owner"
) -> Collection:
    """A collection with the space-separated clip ids of ``clips`` (queries are clips too)."""
    owner, _ = get_user_model().objects.get_or_create(username=owner_name)
    collection = Collection.objects.create(owner=owner, name=name)
    for external_id in dict.fromkeys(clips.split() + queries.split()):
        Clip.objects.create(collection=collection, external_id=external_id)
    for external_id in queries.split():
        Query.objects.create(
            collection=collection, clip=collection.clips.get(external_id=external_id)
        )
    return collection


def table_snapshot() -> dict[str, list[tuple]]:
    """Every row of the collection tables, to show that an import changed nothing."""
    return {
        "clips": list(
            Clip.objects.order_by("pk").values_list(
                "pk", "external_id", "title", "artist", "genre", "duration", "audio"
            )
        ),
        "queries": list(Query.objects.order_by("pk").values_list("pk", "clip_id")),
        "systems": list(System.objects.order_by("pk").values_list("pk", "name")),
        "run entries": list(
            RunEntry.objects.order_by("pk").values_list(
                "pk", "system_id", "query_id", "rank", "clip_id", "score"
            )
        ),
        "judgments": list(
            RelevanceJudgment.objects.order_by("pk").values_list(
                "pk", "query_id", "clip_id", "source", "broad", "fine", "updated_at"
            )
        ),
    }


def ranked_list(system: str, query: str) -> list[tuple[str, float | None]]:
    """A stored ranked list as (document id, score) in rank order."""
    return list(
        RunEntry.objects.filter(system__name=system, query__clip__external_id=query)
        .order_by("rank")
        .values_list("clip__external_id", "score")
    )


def mirex_folder() -> Path:
    """The MIREX 2011 AMS data (see :mod:`tests.helpers.shared_data`)."""
    return require(MIREX2011)


def mirex_folder_write(folder: Path, *, judgments: tuple[str, ...] = ()) -> Path:
    """A tiny MIREX-style folder: 2 systems × 2 queries × top 2, CRLF, tab-separated."""
    folder.mkdir(exist_ok=True)
    write_lines(
        folder,
        "runs.tsv",
        "S1\tq1\ta",
        "S1\tq1\tb",
        "S1\tq2\tc",
        "S1\tq2\ta",
        "S2\tq1\tb",
        "S2\tq1\tc",
        "S2\tq2\ta",
        "S2\tq2\tunlisted",
    )
    write_lines(
        folder,
        "judgments.tsv",
        *(judgments or ("q1\ta\t80", "q1\tb\t40", "q1\tc\t0", "q2\tc\t95", "q2\ta\t10")),
    )
    write_lines(folder, "metadata.tsv", *(f"{d}\tartist-{d}\tgenre-{d}" for d in "abc"), "q1\tx\ty")
    return folder


def run_from_command_line(monkeypatch, capsys, name: str, *args: str) -> tuple[int, str]:
    """Run a command the way manage.py does; return its exit status and stderr."""
    # run_from_argv closes every connection when it ends; the test's transaction needs its own.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    command = load_command_class(get_commands()[name], name)
    with pytest.raises(SystemExit) as exited:
        command.run_from_argv(["manage.py", name, *args, "--skip-checks"])
    return exited.value.code, capsys.readouterr().err


def import_failure(importer, collection, path, **options) -> str:
    """The message of the :class:`ImportFailed` that ``importer`` raises for ``path`` (it
    must raise one): ``partial(import_failure, runs_import)`` in a module of its tests."""
    with pytest.raises(ImportFailed) as failed:
        importer(collection=collection, path=path, **options)
    return str(failed.value)
