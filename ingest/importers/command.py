"""What the ``import_*`` management commands share: turning :class:`ImportFailed` into a
``CommandError`` (message on stderr, exit status 1) and printing counts (the collection
they name: :mod:`catalog.commands`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management.base import CommandError

from common.files.errors import ImportFailed


@contextmanager
def import_failures_as_command_errors() -> Iterator[None]:
    try:
        yield
    except ImportFailed as error:
        raise CommandError(str(error)) from error


def count_lines(rows: list[tuple[str, int, int]]) -> list[str]:
    """A small table of ``(what, created, already present)`` counts, e.g. ``9,000``."""
    lines = [f"  {'':<14}{'created':>10}{'already present':>18}"]
    lines.extend(f"  {what:<14}{created:>10,}{present:>18,}" for what, created, present in rows)
    return lines
