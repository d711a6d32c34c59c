"""PostgreSQL's planner statistics, for tests that fill big tables inside one transaction.

A test's rows are never committed, so autovacuum never analyses them: the planner takes
each table for the size it had when last analysed (a few rows) and may join thousands of
rows by nested loops over one another. On 28 Nov 2026 that held `make test`'s
PostgreSQL pass for over ten minutes in one ``UPDATE`` of the many-identities replay
(6,000 tasks × 6,000 tasks × 150 workers). ``ANALYZE`` inside the transaction counts the
transaction's own rows, as production's statistics count everything: plans then are the
ones a real installation gets. SQLite has no such statistics to update: nothing to do.
"""

from __future__ import annotations

from django.db import connection


def statistics_update() -> None:
    """``ANALYZE`` every table on PostgreSQL (its own uncommitted rows included)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
