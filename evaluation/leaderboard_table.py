"""The leaderboard page's table of systems, made when the leaderboard is stored (issue 34,
item 5).

At 180 systems the table is 1,620 formatted numbers (:mod:`evaluation.leaderboard_rows`),
about a third of the page's CPU. So the recompute makes it once, right after computing
the leaderboard, and stores it on the row (``Leaderboard.table``) with a digest of what it
shows that lives outside the leaderboard (:func:`table_key`): the systems' ids (each
system's link), the address of a system's page (the site's URL prefix), the
leaderboard's ``computed_at``, and the code that formats the rows (:data:`FORMAT`). The
page uses the stored table when what it sees now has the same digest. Otherwise — a
system added or deleted since, the site served under a prefix the recompute did not
know, a leaderboard stored before the table was or by other code — it makes the table and
keeps it per process (:func:`evaluation.leaderboard_rows.kept`), as before.

Systems are addressed by id, never by name: a name may hold "/" or anything else a URL
cannot carry. A system deleted since the computation has no id (and no link).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from catalog import published as catalog
from catalog.published import Collection
from evaluation import leaderboard_rows

FORMAT = hashlib.sha256(Path(leaderboard_rows.__file__).read_bytes()).hexdigest()[:16]
"""A digest of the code that formats the rows: a stored table made by other code (before
an upgrade changed a column, say) is not used, only made again."""


def system_url_for(collection_id: int, *, measure: str) -> Callable[[int | str], str]:
    """``system_url(system_id)``: a system's page for ``measure``, reversed once."""
    placeholder = 2**62  # the last argument of the URL, swapped for each system's id
    prefix, suffix = reverse("evaluation:system", args=[collection_id, placeholder]).rsplit(
        str(placeholder), 1
    )
    query = f"?measure={quote(measure)}"
    return lambda system_id: f"{prefix}{system_id}{suffix}{query}"


def table_key(*, computed_at: datetime, system_url: Callable, ids: dict[str, int]) -> str:
    """A digest of what a table shows besides the leaderboard's own summary, which is
    stored with the table (see the module).

    >>> from datetime import UTC
    >>> at = datetime(2026, 11, 29, 5, 0, tzinfo=UTC)
    >>> key = table_key(computed_at=at, system_url=str, ids={"s1": 1})
    >>> len(key), key == table_key(computed_at=at, system_url=str, ids={"s1": 2})
    (64, False)
    """
    what = (FORMAT, computed_at.timestamp(), system_url(""), sorted(ids.items()))
    return hashlib.sha256(repr(what).encode()).hexdigest()


def _table(
    collection: Collection, *, measure: str, summary: dict, computed_at: datetime
) -> tuple[str, Callable[[], SafeString]]:
    """(the key, how to make the table) for a leaderboard's summary as the site is now."""
    ids = dict(catalog.collection_systems(collection=collection).values_list("name", "pk"))
    system_url = system_url_for(collection.pk, measure=measure)

    def make() -> SafeString:
        rows = [{**row, "system_id": ids.get(row["system"])} for row in summary["rows"]]
        judged = bool(summary.get("judged_label"))
        return leaderboard_rows.table_body(rows, system_url=system_url, judged=judged)

    return table_key(computed_at=computed_at, system_url=system_url, ids=ids), make


def table_made(
    collection: Collection, *, measure: str, summary: dict, computed_at: datetime
) -> tuple[str, str]:
    """(the table, its key) for a leaderboard about to be stored: what the recompute keeps
    on the row (:func:`evaluation.services.leaderboard_store.leaderboard_store`)."""
    key, make = _table(collection, measure=measure, summary=summary, computed_at=computed_at)
    return str(make()), key


def leaderboard_table(collection: Collection, board) -> SafeString:
    """The table the leaderboard page shows for the stored ``board`` (which must have its
    ``summary``, ``table`` and ``table_key`` loaded): the stored table if nothing it shows
    changed since it was made, else made now and kept per process."""
    key, make = _table(
        collection, measure=board.measure, summary=board.summary, computed_at=board.computed_at
    )
    if board.table and board.table_key == key:
        return mark_safe(board.table)  # made by leaderboard_rows.table_body: every text escaped
    return leaderboard_rows.kept((board.pk, key), make)
